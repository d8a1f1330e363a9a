/** POST /members/{id}/sessions/revoke: an owner signs a member out everywhere. */
import { describe, expect, it } from "vitest";
import { keyWith, memberOf } from "../../support/access";
import { api, createAccount, json } from "../../support/api";
import { asMember, signIn } from "../../support/members";
import { expectNotFoundLikeUnknown, expectUnauthorized, unknownIdLike } from "../../support/security";

const unique = (name: string) => `${name}.${crypto.randomUUID().slice(0, 8)}@example.com`;

describe("happy", () => {
  it("204; every session of the member ends, in every browser; the member stays active and may sign in again", async () => {
    const { apiKey } = await createAccount();
    await memberOf(apiKey, { role: "owner" }, true);
    const email = unique("fd");
    const member = await memberOf(apiKey, { role: "frontdesk", email });
    const first = await signIn(email);
    const second = await signIn(email);
    expect((await asMember("GET", "/bookings", first)).status).toBe(200);
    const res = await api("POST", `/members/${member.id}/sessions/revoke`, { key: apiKey });
    expect(res.status).toBe(204);
    expect((await asMember("GET", "/bookings", first)).status).toBe(401);
    expect((await asMember("GET", "/bookings", second)).status).toBe(401);
    expect((await json(await api("GET", `/members/${member.id}`, { key: apiKey }))).status).toBe("active");
    expect((await asMember("GET", "/bookings", await signIn(email))).status).toBe(200);
  });

  it("an owner signed in may sign a member out through the API with the session", async () => {
    const { apiKey } = await createAccount();
    const ownerEmail = unique("owner");
    await memberOf(apiKey, { role: "owner", email: ownerEmail });
    const owner = await signIn(ownerEmail);
    const email = unique("staffless");
    const member = await memberOf(apiKey, { role: "frontdesk", email });
    const session = await signIn(email);
    const res = await asMember("POST", `/members/${member.id}/sessions/revoke`, owner, undefined, {
      Origin: "http://api.test",
    });
    expect(res.status).toBe(204);
    expect((await asMember("GET", "/bookings", session)).status).toBe(401);
  });
});

describe("error", () => {
  it("404 for an unknown id, whatever its shape", async () => {
    const { apiKey } = await createAccount();
    expect((await api("POST", `/members/${unknownIdLike("mbr_x")}/sessions/revoke`, { key: apiKey })).status).toBe(404);
    expect((await api("POST", "/members/nope/sessions/revoke", { key: apiKey })).status).toBe(404);
  });
});

describe("security", () => {
  it("401 without a key; 403 without members:write, and the sessions stay", async () => {
    await expectUnauthorized(await api("POST", `/members/${unknownIdLike("mbr_x")}/sessions/revoke`), false);
    const { key, owner } = await keyWith(["bookings:read", "bookings:write"]);
    const email = unique("kept");
    const member = await memberOf(owner, { role: "frontdesk", email });
    const session = await signIn(email);
    expect((await api("POST", `/members/${member.id}/sessions/revoke`, { key })).status).toBe(403);
    expect((await asMember("GET", "/bookings", session)).status).toBe(200);
  });

  it("a front-desk member may not sign others out (403), and another business's member is a 404", async () => {
    const { apiKey } = await createAccount();
    const email = unique("fd");
    await memberOf(apiKey, { role: "frontdesk", email });
    const frontdesk = await signIn(email);
    const other = await createAccount();
    const otherEmail = unique("other");
    const theirs = await memberOf(other.apiKey, { role: "owner", email: otherEmail });
    const theirSession = await signIn(otherEmail);
    const refused = await asMember("POST", `/members/${theirs.id}/sessions/revoke`, frontdesk, undefined, {
      Origin: "http://api.test",
    });
    expect(refused.status).toBe(403);
    const unknown = unknownIdLike(theirs.id);
    await expectNotFoundLikeUnknown(
      await api("POST", `/members/${theirs.id}/sessions/revoke`, { key: apiKey }),
      theirs.id,
      await api("POST", `/members/${unknown}/sessions/revoke`, { key: apiKey }),
      unknown,
    );
    expect((await asMember("GET", "/members", theirSession)).status).toBe(200);
  });
});
