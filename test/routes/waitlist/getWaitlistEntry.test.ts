/** GET /waitlist/{id}: the entry as its service's calendar has it now. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, problem } from "../../support/api";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";
import { fullSlot, join, joinBody } from "../../support/waitlist";

async function setup() {
  const s = await fullSlot();
  const queued = await join(s.apiKey, joinBody(s));
  return { ...s, queued };
}
const get = (key: string | undefined, id: string) => api("GET", `/waitlist/${id}`, { key });

describe("happy", () => {
  it("200 with the entry as it was queued", async () => {
    const s = await setup();
    const res = await get(s.apiKey, s.queued.id);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual(s.queued);
  });
});

describe("error", () => {
  it("404 for an id that names no entry; 422 for one too long", async () => {
    const s = await setup();
    await problem(await get(s.apiKey, unknownIdLike(s.queued.id)), 404, "not_found");
    await problem(await get(s.apiKey, "x".repeat(65)), 422, "validation_failed");
  });
});

describe("security", () => {
  it("401 without a key and with a revoked one", async () => {
    const s = await setup();
    await expectUnauthorized(await get(undefined, s.queued.id), false);
    await expectUnauthorized(await get(await revokedKey(s.businessId), s.queued.id), true);
  });

  it("another business gets the 404 of an unknown id", async () => {
    const s = await setup();
    const other = await createAccount("Other");
    const unknown = unknownIdLike(s.queued.id);
    await expectNotFoundLikeUnknown(
      await get(other.apiKey, s.queued.id),
      s.queued.id,
      await get(other.apiKey, unknown),
      unknown,
      [s.queued.customerEmail],
    );
  });
});
