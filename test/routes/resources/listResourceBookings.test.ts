/** GET /resources/{id}/bookings: the bookings that took a unit of a resource, across services, filtered like GET /bookings. */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, problem, validationError } from "../../support/api";
import { at, book, bookingBody } from "../../support/bookings";
import { createResource } from "../../support/fixtures";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

/** Ids of the bookings the resource's list answers, in order (asserts 200 and a full page). */
async function listIds(key: string, resourceId: string, query = ""): Promise<string[]> {
  const res = await api("GET", `/resources/${resourceId}/bookings${query}`, { key });
  expect(res.status).toBe(200);
  const body = await json(res);
  expect(body.pagination.total).toBe(body.data.length);
  return body.data.map((b: { id: string }) => b.id);
}

/** A business with a two-unit room that two services need, and a third service that needs none. */
async function spa() {
  const account = await createAccount("Spa");
  const room = (await createResource(account.apiKey, { quantity: 2, name: "Room Q" })).id as string;
  const massage = (await createService(account.apiKey, { name: "Massage", resourceIds: [room] })).id as string;
  const facial = (await createService(account.apiKey, { name: "Facial", resourceIds: [room] })).id as string;
  const walk = (await createService(account.apiKey, { name: "Walk-in" })).id as string;
  return { ...account, room, massage, facial, walk };
}

describe("happy", () => {
  it("lists the room's bookings across services, newest appointment first, filtered, with resourceIds", async () => {
    const s = await spa();
    const a = await book(s.apiKey, bookingBody(s.massage, at(3, "10:00")));
    const b = await book(s.apiKey, bookingBody(s.facial, at(3, "11:00")));
    const c = await book(s.apiKey, bookingBody(s.massage, at(4, "10:00")));
    await book(s.apiKey, bookingBody(s.walk, at(3, "10:00")));
    expect(a.resourceIds).toEqual([s.room]);
    expect(await listIds(s.apiKey, s.room)).toEqual([c.id, b.id, a.id]);
    expect(await listIds(s.apiKey, s.room, `?serviceId=${s.massage}`)).toEqual([c.id, a.id]);
    expect(await listIds(s.apiKey, s.room, `?from=${at(3, "10:30")}&to=${at(4, "00:00")}`)).toEqual([b.id]);
    expect((await api("POST", `/bookings/${b.id}/cancel`, { key: s.apiKey })).status).toBe(200);
    expect(await listIds(s.apiKey, s.room, "?status=CONFIRMED")).toEqual([c.id, a.id]);
    const page = await api("GET", `/resources/${s.room}/bookings?limit=1`, { key: s.apiKey });
    expect((await json(page)).data[0]).toMatchObject({ id: c.id, resourceIds: [s.room] });
    expect(page.headers.get("Link")).toContain(`</api/v1/resources/${s.room}/bookings?limit=1&page=2>; rel="next"`);
  });

  it("a moved booking is listed at its new time", async () => {
    const s = await spa();
    const a = await book(s.apiKey, bookingBody(s.massage, at(3, "10:00")));
    const b = await book(s.apiKey, bookingBody(s.massage, at(3, "12:00")));
    const moved = await api("POST", `/bookings/${a.id}/reschedule`, {
      key: s.apiKey,
      body: { startTime: at(3, "14:00"), endTime: at(3, "14:30") },
    });
    expect(moved.status).toBe(200);
    expect(await listIds(s.apiKey, s.room)).toEqual([a.id, b.id]);
  });
});

describe("error", () => {
  it("rejects unknown query fields and an unknown status", async () => {
    const s = await spa();
    await validationError(
      await api("GET", `/resources/${s.room}/bookings?resourceId=x`, { key: s.apiKey }),
      "resourceId",
    );
    await validationError(await api("GET", `/resources/${s.room}/bookings?status=DONE`, { key: s.apiKey }), "status");
  });

  it("an unknown resource is 404", async () => {
    const { apiKey } = await createAccount();
    await problem(await api("GET", "/resources/res_unknown/bookings", { key: apiKey }), 404, "not_found");
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge", async () => {
    const s = await spa();
    await expectUnauthorized(await api("GET", `/resources/${s.room}/bookings`), false);
  });

  it("a revoked key gets a 401 and no bookings", async () => {
    const s = await spa();
    await book(s.apiKey, bookingBody(s.massage, at(3, "10:00"), { customerName: "Zelda Q" }));
    const res = await api("GET", `/resources/${s.room}/bookings`, { key: await revokedKey(s.businessId) });
    const text = await res.clone().text();
    await expectUnauthorized(res, true);
    expect(text).not.toContain("Zelda");
  });

  it("a revoked key naming an unknown id gets the 401, never the 404 (the key is checked in the same batch, first)", async () => {
    const s = await spa();
    const unknown = unknownIdLike(s.room);
    await expectUnauthorized(
      await api("GET", `/resources/${unknown}/bookings`, { key: await revokedKey(s.businessId) }),
      true,
    );
  });

  it("another business's resource is the 404 of an unknown id, naming nothing of the owner", async () => {
    const owner = await spa();
    const other = await createAccount("Other");
    await book(owner.apiKey, bookingBody(owner.massage, at(3, "10:00"), { customerName: "Zelda Q" }));
    const unknownId = unknownIdLike(owner.room);
    await expectNotFoundLikeUnknown(
      await api("GET", `/resources/${owner.room}/bookings`, { key: other.apiKey }),
      owner.room,
      await api("GET", `/resources/${unknownId}/bookings`, { key: other.apiKey }),
      unknownId,
      ["Zelda Q", "Room Q", owner.businessId, owner.massage],
    );
  });
});
