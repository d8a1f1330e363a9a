/**
 * PATCH /resources/{id}: given fields replace the stored ones; the ETag is the version. A change
 * to fewer units (a lower quantity, or inactive) is checked against upcoming bookings first.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { resourceCalendarOf } from "../../../src/calendar/stubs";
import { api, createAccount, createService, json, problem, validationError } from "../../support/api";
import { at, book, bookingBody, postBooking } from "../../support/bookings";
import { createResource } from "../../support/fixtures";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

const patchResource = (key: string, id: string, body: unknown, headers?: Record<string, string>) =>
  api("PATCH", `/resources/${id}`, { key, body, headers });

/**
 * A business with a resource of `quantity` units that three services need (the seats of one
 * service's session share a unit, so each unit at one time goes to another service).
 */
async function roomFor(quantity: number) {
  const account = await createAccount();
  const room = await createResource(account.apiKey, { quantity });
  const services: string[] = [];
  for (const name of ["Massage", "Facial", "Sauna"]) {
    services.push((await createService(account.apiKey, { name, resourceIds: [room.id] })).id as string);
  }
  const [service, second, third] = services as [string, string, string];
  return { ...account, room: room.id as string, service, second, third };
}

describe("happy", () => {
  it("replaces the given fields, keeps the others, bumps the ETag and honours If-Match", async () => {
    const { apiKey } = await createAccount();
    const resource = await createResource(apiKey, { dateOverrides: [{ date: "2026-12-24", intervals: [] }] });
    const patched = await patchResource(apiKey, resource.id, { name: "Room 2", quantity: 4 }, { "If-Match": '"v1"' });
    expect(patched.status).toBe(200);
    expect(patched.headers.get("ETag")).toBe('"v2"');
    expect(await json(patched)).toMatchObject({ name: "Room 2", quantity: 4, dateOverrides: resource.dateOverrides });
    const stale = await patchResource(apiKey, resource.id, { name: "Lost" }, { "If-Match": '"v1"' });
    await problem(stale, 412, "precondition_failed");
    expect(stale.headers.get("ETag")).toBe('"v2"');
    expect((await json(await api("GET", `/resources/${resource.id}`, { key: apiKey }))).name).toBe("Room 2");
  });

  it("has pushed the settings to the resource calendar before answering", async () => {
    const { apiKey, businessId } = await createAccount();
    const resource = await createResource(apiKey);
    await patchResource(apiKey, resource.id, { quantity: 5, timezone: "Asia/Tokyo" });
    const { settings } = await resourceCalendarOf(env, businessId, resource.id).snapshot();
    expect(settings).toMatchObject({ version: 2, quantity: 5, timezone: "Asia/Tokyo" });
  });

  it("more units take more bookings at once; fewer units are fine while the bookings fit", async () => {
    const s = await roomFor(1);
    const start = at(3, "10:00");
    await book(s.apiKey, bookingBody(s.service, start));
    const full = await postBooking(s.apiKey, bookingBody(s.second, start));
    expect((await problem(full, 409, "slot_unavailable")).reason).toBe("resource_unavailable");
    expect((await patchResource(s.apiKey, s.room, { quantity: 3 })).status).toBe(200);
    await book(s.apiKey, bookingBody(s.second, start));
    // Two bookings at 10:00: down to 2 units fits them.
    expect((await patchResource(s.apiKey, s.room, { quantity: 2 })).status).toBe(200);
  });

  it("an inactive resource takes no new bookings; one without upcoming bookings may be set inactive", async () => {
    const s = await roomFor(1);
    expect((await patchResource(s.apiKey, s.room, { active: false })).status).toBe(200);
    const refused = await postBooking(s.apiKey, bookingBody(s.service, at(3, "10:00")));
    expect((await problem(refused, 409, "slot_unavailable")).reason).toBe("resource_unavailable");
  });
});

describe("error", () => {
  it("lowering quantity below what upcoming bookings need is a 409 listing them; nothing changes", async () => {
    const s = await roomFor(2);
    const start = at(3, "10:00");
    const a = await book(s.apiKey, bookingBody(s.service, start));
    const b = await book(s.apiKey, bookingBody(s.second, start));
    const res = await patchResource(s.apiKey, s.room, { quantity: 1 });
    const body = await problem(res, 409, "bookings_conflict");
    expect(body.conflicts).toEqual([{ at: expect.any(String), bookingIds: [a.id, b.id].sort() }]);
    const after = await api("GET", `/resources/${s.room}`, { key: s.apiKey });
    expect(after.headers.get("ETag")).toBe('"v1"');
    expect((await json(after)).quantity).toBe(2);
    // The calendar still decides against 2 units: a second booking at another time fits.
    await book(s.apiKey, bookingBody(s.service, at(3, "12:00")));
    await book(s.apiKey, bookingBody(s.second, at(3, "12:00")));
  });

  it("deactivating a resource that upcoming bookings hold is a 409; after they are cancelled it is allowed", async () => {
    const s = await roomFor(1);
    const booking = await book(s.apiKey, bookingBody(s.service, at(3, "10:00")));
    const body = await problem(await patchResource(s.apiKey, s.room, { active: false }), 409, "bookings_conflict");
    expect(body.conflicts[0].bookingIds).toEqual([booking.id]);
    expect((await api("POST", `/bookings/${booking.id}/cancel`, { key: s.apiKey })).status).toBe(200);
    expect((await patchResource(s.apiKey, s.room, { active: false })).status).toBe(200);
  });

  it.each([
    ["an empty body", {}, "(root)"],
    ["quantity 0", { quantity: 0 }, "quantity"],
    ["a null name", { name: null }, "name"],
    ["an unknown field", { version: 7 }, "version"],
  ] as [string, Record<string, unknown>, string][])(
    "rejects %s with 422 and changes nothing",
    async (_, body, path) => {
      const { apiKey } = await createAccount();
      const resource = await createResource(apiKey);
      await validationError(await patchResource(apiKey, resource.id, body), path);
      expect(await json(await api("GET", `/resources/${resource.id}`, { key: apiKey }))).toEqual(resource);
    },
  );

  it("an unknown id is 404 not_found", async () => {
    const { apiKey } = await createAccount();
    await problem(await patchResource(apiKey, "res_unknown", { name: "x" }), 404, "not_found");
    await problem(await patchResource(apiKey, "res_unknown", { quantity: 1 }), 404, "not_found");
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge, nothing changed", async () => {
    const { apiKey } = await createAccount();
    const resource = await createResource(apiKey);
    await expectUnauthorized(await api("PATCH", `/resources/${resource.id}`, { body: { name: "Hijacked" } }), false);
    expect(await json(await api("GET", `/resources/${resource.id}`, { key: apiKey }))).toEqual(resource);
  });

  it("a revoked key: 401, nothing changed", async () => {
    const { apiKey, businessId } = await createAccount();
    const resource = await createResource(apiKey);
    await expectUnauthorized(await patchResource(await revokedKey(businessId), resource.id, { quantity: 9 }), true);
    expect(await json(await api("GET", `/resources/${resource.id}`, { key: apiKey }))).toEqual(resource);
  });

  it("another business gets the 404 of an unknown id and changes nothing", async () => {
    const owner = await createAccount("Owner Spa");
    const other = await createAccount("Other");
    const resource = await createResource(owner.apiKey);
    const unknownId = unknownIdLike(resource.id);
    await expectNotFoundLikeUnknown(
      await patchResource(other.apiKey, resource.id, { quantity: 1 }),
      resource.id,
      await patchResource(other.apiKey, unknownId, { quantity: 1 }),
      unknownId,
      ["Owner Spa", "Treatment room", owner.businessId],
    );
    const after = await api("GET", `/resources/${resource.id}`, { key: owner.apiKey });
    expect(after.headers.get("ETag")).toBe('"v1"');
  });
});
