/** DELETE /members/{id}: removes a member, never the last active owner. */
import { describe, expect, it } from "vitest";
import { keyWith, memberOf } from "../../support/access";
import { api, createAccount, json, problem } from "../../support/api";
import { expectNotFoundLikeUnknown, expectUnauthorized, unknownIdLike } from "../../support/security";

describe("happy", () => {
  it("204, and the member is gone; an owner may go while another active owner stays", async () => {
    const { apiKey } = await createAccount();
    const a = await memberOf(apiKey, { role: "owner" }, true);
    await memberOf(apiKey, { role: "owner" }, true);
    expect((await api("DELETE", `/members/${a.id}`, { key: apiKey })).status).toBe(204);
    expect((await api("GET", `/members/${a.id}`, { key: apiKey })).status).toBe(404);
  });
});

describe("error", () => {
  it("409 last_owner for the last active owner, who stays; 404 for an unknown id", async () => {
    const { apiKey } = await createAccount();
    const owner = await memberOf(apiKey, { role: "owner" }, true);
    await memberOf(apiKey, { role: "owner" }); // invited: not an active owner
    await problem(await api("DELETE", `/members/${owner.id}`, { key: apiKey }), 409, "last_owner");
    expect((await json(await api("GET", `/members/${owner.id}`, { key: apiKey }))).status).toBe("active");
    expect((await api("DELETE", `/members/${unknownIdLike("mbr_x")}`, { key: apiKey })).status).toBe(404);
  });

  it("two owners removed at once: one goes, the other is the last and stays", async () => {
    const { apiKey } = await createAccount();
    const a = await memberOf(apiKey, { role: "owner" }, true);
    const b = await memberOf(apiKey, { role: "owner" }, true);
    const statuses = (await Promise.all([a, b].map((m) => api("DELETE", `/members/${m.id}`, { key: apiKey })))).map(
      (r) => r.status,
    );
    expect(statuses.sort()).toEqual([204, 409]);
    expect((await json(await api("GET", "/members", { key: apiKey }))).data).toHaveLength(1);
  });
});

describe("security", () => {
  it("401 without a key; 403 without members:write, and the member stays", async () => {
    await expectUnauthorized(await api("DELETE", `/members/${unknownIdLike("mbr_x")}`), false);
    const { key, owner } = await keyWith(["bookings:write"]);
    const member = await memberOf(owner, { role: "frontdesk" });
    expect((await api("DELETE", `/members/${member.id}`, { key })).status).toBe(403);
    expect((await api("GET", `/members/${member.id}`, { key: owner })).status).toBe(200);
  });

  it("another business's member is a 404 like an unknown one, and stays", async () => {
    const other = await createAccount();
    const theirs = await memberOf(other.apiKey, { role: "frontdesk" });
    const { apiKey } = await createAccount();
    const unknown = unknownIdLike(theirs.id);
    await expectNotFoundLikeUnknown(
      await api("DELETE", `/members/${theirs.id}`, { key: apiKey }),
      theirs.id,
      await api("DELETE", `/members/${unknown}`, { key: apiKey }),
      unknown,
    );
    expect((await api("GET", `/members/${theirs.id}`, { key: other.apiKey })).status).toBe(200);
  });
});
