/** GET /members: the business's members, newest first; only its own. */
import { describe, expect, it } from "vitest";
import { keyWith, memberOf } from "../../support/access";
import { api, createAccount, json, validationError } from "../../support/api";
import { expectUnauthorized } from "../../support/security";

describe("happy", () => {
  it("lists the business's members newest first with a total", async () => {
    const { apiKey } = await createAccount();
    const first = await memberOf(apiKey, { role: "owner" });
    const second = await memberOf(apiKey, { role: "frontdesk" });
    const page = await json(await api("GET", "/members", { key: apiKey }));
    expect(page.data.map((m: { id: string }) => m.id)).toEqual([second.id, first.id]);
    expect(page.pagination.total).toBe(2);
  });
});

describe("error", () => {
  it("422 for an unknown query parameter", async () => {
    const { apiKey } = await createAccount();
    await validationError(await api("GET", "/members?role=owner", { key: apiKey }), "role");
  });
});

describe("security", () => {
  it("401 without a key; reading needs members:write too", async () => {
    await expectUnauthorized(await api("GET", "/members"), false);
    const { key } = await keyWith(["bookings:read", "catalog:read", "customers:read"]);
    expect((await api("GET", "/members", { key })).status).toBe(403);
  });

  it("another business's members are not listed", async () => {
    const other = await createAccount();
    await memberOf(other.apiKey, { role: "owner" });
    const { apiKey } = await createAccount();
    expect((await json(await api("GET", "/members", { key: apiKey }))).data).toEqual([]);
  });
});
