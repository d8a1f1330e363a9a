/** POST /members: invites a member; a staff member is one of the business's providers. */
import { describe, expect, it } from "vitest";
import { MAX_MEMBERS } from "../../../src/access/members";
import { keyWith, memberOf } from "../../support/access";
import { api, createAccount, json, problem, validationError } from "../../support/api";
import { newProvider } from "../../support/fixtures";
import { expectUnauthorized } from "../../support/security";

describe("happy", () => {
  it("201 with the member invited, its Location and ETag; the address is kept lower-cased", async () => {
    const { apiKey } = await createAccount();
    const res = await api("POST", "/members", {
      key: apiKey,
      body: { email: "Front.Desk@Example.com", name: "Front Desk", role: "frontdesk" },
    });
    expect(res.status).toBe(201);
    const member = await json(res);
    expect(member).toMatchObject({
      email: "front.desk@example.com",
      role: "frontdesk",
      status: "invited",
      providerId: null,
      lastSignInAt: null,
    });
    expect(member.id).toMatch(/^mbr_/);
    expect(res.headers.get("Location")).toBe(`/api/v1/members/${member.id}`);
    expect(res.headers.get("ETag")).toBeTruthy();
  });

  it("a staff member names their provider", async () => {
    const { apiKey } = await createAccount();
    const providerId = await newProvider(apiKey, "Stylist");
    const member = await memberOf(apiKey, { role: "staff", providerId });
    expect((await json(await api("GET", `/members/${member.id}`, { key: apiKey }))).providerId).toBe(providerId);
  });
});

describe("error", () => {
  it("422 naming the field: staff without a provider, another business's provider, a provider for an owner, unknown fields", async () => {
    const { apiKey } = await createAccount();
    const other = await createAccount();
    const foreign = await newProvider(other.apiKey, "Elsewhere");
    const body = { email: "s@example.com", name: "S" };
    await validationError(
      await api("POST", "/members", { key: apiKey, body: { ...body, role: "staff" } }),
      "providerId",
    );
    await validationError(
      await api("POST", "/members", { key: apiKey, body: { ...body, role: "staff", providerId: foreign } }),
      "providerId",
    );
    await validationError(
      await api("POST", "/members", { key: apiKey, body: { ...body, role: "owner", providerId: foreign } }),
      "providerId",
    );
    await validationError(await api("POST", "/members", { key: apiKey, body: { ...body, role: "admin" } }), "role");
    await validationError(
      await api("POST", "/members", { key: apiKey, body: { ...body, role: "owner", password: "x" } }),
      "password",
    );
    await validationError(
      await api("POST", "/members", { key: apiKey, body: { ...body, email: "nope", role: "owner" } }),
      "email",
    );
    expect((await json(await api("GET", "/members", { key: apiKey }))).data).toEqual([]);
  });

  it("409 member_exists for an address the business has a member with, whatever its case", async () => {
    const { apiKey } = await createAccount();
    await memberOf(apiKey, { role: "owner", email: "ada@example.com" });
    const res = await api("POST", "/members", {
      key: apiKey,
      body: { email: "ADA@example.com", name: "Ada", role: "frontdesk" },
    });
    await problem(res, 409, "member_exists");
  });

  it(`409 member_limit past ${MAX_MEMBERS} members, even for a concurrent burst`, async () => {
    const { apiKey } = await createAccount();
    for (let n = 0; n < MAX_MEMBERS - 3; n += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, MAX_MEMBERS - 3 - n) }, (_, i) =>
          memberOf(apiKey, { role: "frontdesk", email: `f${n + i}@example.com` }),
        ),
      );
    }
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api("POST", "/members", { key: apiKey, body: { email: `b${i}@example.com`, name: "B", role: "frontdesk" } }),
      ),
    );
    expect(burst.filter((r) => r.status === 201)).toHaveLength(3);
    await problem(burst.find((r) => r.status === 409) as Response, 409, "member_limit");
    expect((await json(await api("GET", "/members?limit=1", { key: apiKey }))).pagination.total).toBe(MAX_MEMBERS);
  });
});

describe("security", () => {
  it("401 without a key; 403 insufficient_scope for a key without members:write, and nothing made", async () => {
    await expectUnauthorized(await api("POST", "/members", { body: {} }), false);
    const { key, owner } = await keyWith(["bookings:read", "bookings:write", "customers:write", "keys:write"]);
    const res = await api("POST", "/members", { key, body: { email: "x@example.com", name: "X", role: "owner" } });
    expect((await problem(res, 403, "insufficient_scope")).scope).toBe("members:write");
    expect((await json(await api("GET", "/members", { key: owner }))).data).toEqual([]);
  });
});
