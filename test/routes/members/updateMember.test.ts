/** PATCH /members/{id}: name, role, status; the business keeps an active owner. */
import { describe, expect, it } from "vitest";
import { keyWith, memberOf } from "../../support/access";
import { api, createAccount, json, problem, validationError } from "../../support/api";
import { newProvider } from "../../support/fixtures";
import { expectNotFoundLikeUnknown, expectUnauthorized, unknownIdLike } from "../../support/security";

const patch = (key: string, id: string, body: unknown, headers?: Record<string, string>) =>
  api("PATCH", `/members/${id}`, { key, body, headers });

describe("happy", () => {
  it("renames, changes the role (staff with a provider), and re-enabling a never-signed-in member leaves them invited", async () => {
    const { apiKey } = await createAccount();
    const providerId = await newProvider(apiKey, "Stylist");
    const m = await memberOf(apiKey, { role: "frontdesk" });
    const res = await patch(apiKey, m.id, { name: "New Name", role: "staff", providerId });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ name: "New Name", role: "staff", providerId });
    expect((await json(await patch(apiKey, m.id, { role: "frontdesk" }))).providerId).toBeNull();
    expect((await json(await patch(apiKey, m.id, { status: "disabled" }))).status).toBe("disabled");
    expect((await json(await patch(apiKey, m.id, { status: "active" }))).status).toBe("invited");
  });

  it("an owner may be demoted while another active owner stays", async () => {
    const { apiKey } = await createAccount();
    const a = await memberOf(apiKey, { role: "owner" }, true);
    await memberOf(apiKey, { role: "owner" }, true);
    expect((await json(await patch(apiKey, a.id, { role: "frontdesk" }))).role).toBe("frontdesk");
  });
});

describe("error", () => {
  it("409 last_owner for demoting or disabling the last active owner; nothing changes", async () => {
    const { apiKey } = await createAccount();
    const owner = await memberOf(apiKey, { role: "owner" }, true);
    await problem(await patch(apiKey, owner.id, { role: "frontdesk" }), 409, "last_owner");
    await problem(await patch(apiKey, owner.id, { status: "disabled" }), 409, "last_owner");
    expect(await json(await api("GET", `/members/${owner.id}`, { key: apiKey }))).toMatchObject({
      role: "owner",
      status: "active",
    });
  });

  it("two active owners demoting each other at once leave exactly one owner", async () => {
    for (let round = 0; round < 3; round++) {
      const { apiKey } = await createAccount();
      const a = await memberOf(apiKey, { role: "owner" }, true);
      const b = await memberOf(apiKey, { role: "owner" }, true);
      const answers = await Promise.all([
        patch(apiKey, a.id, { role: "frontdesk" }),
        patch(apiKey, b.id, { status: "disabled" }),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      const owners = (await json(await api("GET", "/members", { key: apiKey }))).data.filter(
        (m: { role: string; status: string }) => m.role === "owner" && m.status === "active",
      );
      expect(owners).toHaveLength(1);
    }
  });

  it("422 naming the field (unknown fields too, staff without provider); 412 for a stale If-Match; 404 unknown", async () => {
    const { apiKey } = await createAccount();
    const m = await memberOf(apiKey, { role: "frontdesk" });
    await validationError(await patch(apiKey, m.id, { email: "x@example.com" }), "email");
    await validationError(await patch(apiKey, m.id, { status: "invited" }), "status");
    await validationError(await patch(apiKey, m.id, { role: "staff" }), "providerId");
    await problem(await patch(apiKey, m.id, { name: "X" }, { "If-Match": '"999"' }), 412, "precondition_failed");
    expect((await json(await api("GET", `/members/${m.id}`, { key: apiKey }))).role).toBe("frontdesk");
    expect((await patch(apiKey, unknownIdLike("mbr_x"), { name: "X" })).status).toBe(404);
  });
});

describe("security", () => {
  it("401 without a key; 403 without members:write, and nothing changes", async () => {
    await expectUnauthorized(await patch("", unknownIdLike("mbr_x"), {}), false);
    const { key, owner } = await keyWith(["bookings:write", "customers:write"]);
    const m = await memberOf(owner, { role: "frontdesk" });
    expect((await patch(key, m.id, { role: "owner" })).status).toBe(403);
    expect((await json(await api("GET", `/members/${m.id}`, { key: owner }))).role).toBe("frontdesk");
  });

  it("another business's member is a 404 like an unknown one, and unchanged", async () => {
    const other = await createAccount();
    const theirs = await memberOf(other.apiKey, { role: "frontdesk" });
    const { apiKey } = await createAccount();
    const unknown = unknownIdLike(theirs.id);
    await expectNotFoundLikeUnknown(
      await patch(apiKey, theirs.id, { role: "owner" }),
      theirs.id,
      await patch(apiKey, unknown, { role: "owner" }),
      unknown,
    );
    expect((await json(await api("GET", `/members/${theirs.id}`, { key: other.apiKey }))).role).toBe("frontdesk");
  });
});
