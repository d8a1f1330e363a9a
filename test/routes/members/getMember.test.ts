/** GET /members/{id}: one member, with its ETag. */
import { describe, expect, it } from "vitest";
import { keyWith, memberOf } from "../../support/access";
import { api, createAccount, json } from "../../support/api";
import { expectNotFoundLikeUnknown, expectUnauthorized, unknownIdLike } from "../../support/security";

describe("happy", () => {
  it("200 with the member and an ETag; 304 for If-None-Match naming it", async () => {
    const { apiKey } = await createAccount();
    const member = await memberOf(apiKey, { role: "owner", email: "o@example.com" });
    const res = await api("GET", `/members/${member.id}`, { key: apiKey });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ id: member.id, email: "o@example.com", role: "owner", status: "invited" });
    const etag = res.headers.get("ETag") as string;
    expect(
      (await api("GET", `/members/${member.id}`, { key: apiKey, headers: { "If-None-Match": etag } })).status,
    ).toBe(304);
  });
});

describe("error", () => {
  it("404 for an unknown id", async () => {
    const { apiKey } = await createAccount();
    expect((await api("GET", `/members/${unknownIdLike("mbr_x")}`, { key: apiKey })).status).toBe(404);
  });
});

describe("security", () => {
  it("401 without a key; 403 without members:write", async () => {
    await expectUnauthorized(await api("GET", `/members/${unknownIdLike("mbr_x")}`), false);
    const { key } = await keyWith(["bookings:read"]);
    expect((await api("GET", `/members/${unknownIdLike("mbr_x")}`, { key })).status).toBe(403);
  });

  it("another business's member is a 404 like an unknown one", async () => {
    const other = await createAccount();
    const theirs = await memberOf(other.apiKey, { role: "owner" });
    const { apiKey } = await createAccount();
    const unknown = unknownIdLike(theirs.id);
    await expectNotFoundLikeUnknown(
      await api("GET", `/members/${theirs.id}`, { key: apiKey }),
      theirs.id,
      await api("GET", `/members/${unknown}`, { key: apiKey }),
      unknown,
    );
  });
});
