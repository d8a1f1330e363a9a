/**
 * PATCH /services/{id}: change a service. Once it has answered 200, no booking is accepted
 * against the settings it replaced (the calendar knows the new version before the answer), and
 * every change moves the service's ETag.
 */
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { draftOf } from "../../../src/bookings/draft";
import { services } from "../../../src/db/schema";
import { serviceSnapshotOf } from "../../../src/services/snapshot";
import { api, createAccount, createService, db, json, problem, totalOf, validationError } from "../../support/api";
import { at, bookingBody, calendarStub, dayOf, postBooking } from "../../support/bookings";
import { mostLinks, newProvider } from "../../support/fixtures";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

const rfc3339Utc = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

const patchService = (key: string, id: string, body: unknown, headers?: Record<string, string>) =>
  api("PATCH", `/services/${id}`, { key, body, headers });

/** A service and the snapshot a create that read D1 just before a change would have decided against. */
async function withStaleSnapshot(overrides: Record<string, unknown> = {}) {
  const { apiKey, businessId } = await createAccount();
  const service = await createService(apiKey, overrides);
  const [row] = await db().select().from(services).where(eq(services.id, service.id));
  const stale = serviceSnapshotOf(row as NonNullable<typeof row>);
  return { apiKey, businessId, serviceId: service.id as string, stale };
}

afterEach(() => vi.useRealTimers());

describe("happy", () => {
  it("changes only the given fields and bumps updatedAt", async () => {
    const { apiKey } = await createAccount();
    // The change a second after the create, on a faked clock (a fast machine does both within a millisecond).
    const now = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now });
    const service = await createService(apiKey);
    vi.setSystemTime(now + 1_000);
    const res = await patchService(apiKey, service.id, { name: "Long consultation" });
    vi.useRealTimers();
    expect(res.status).toBe(200);
    const updated = await json(res);
    const { name: _n, updatedAt: _u, ...unchanged } = service;
    expect(updated).toMatchObject({ ...unchanged, name: "Long consultation" });
    expect(updated.updatedAt).toMatch(rfc3339Utc);
    expect(Date.parse(updated.updatedAt) - Date.parse(service.updatedAt)).toBe(1_000);
    expect(await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).toEqual(updated);
  });

  it("sets, replaces and removes limits; a limit lowered below what is booked keeps those bookings and refuses new ones", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const kept = [];
    for (const time of ["09:00", "10:00", "11:00"])
      kept.push(await json(await postBooking(apiKey, bookingBody(service.id, at(3, time)))));
    // Lowered under the day's three bookings: the PATCH is not refused, and they stay.
    const lowered = await json(
      await patchService(apiKey, service.id, { limits: { perDay: 2, perWeek: 50 }, maxActivePerCustomer: 5 }),
    );
    expect(lowered).toMatchObject({ limits: { perDay: 2, perWeek: 50 }, maxActivePerCustomer: 5 });
    for (const booking of kept) {
      const read = await json(await api("GET", `/bookings/${booking.id}`, { key: apiKey }));
      expect(read).toMatchObject({ id: booking.id, status: "CONFIRMED", startTime: booking.startTime });
    }
    const refused = await postBooking(apiKey, bookingBody(service.id, at(3, "12:00")));
    expect((await problem(refused, 409, "slot_unavailable")).reason).toBe("limit_reached");
    // A cancel frees its count, but two remain: the day is still full.
    await api("POST", `/bookings/${kept[0].id}/cancel`, { key: apiKey, body: {} });
    expect((await postBooking(apiKey, bookingBody(service.id, at(3, "12:00")))).status).toBe(409);
    await api("POST", `/bookings/${kept[1].id}/cancel`, { key: apiKey, body: {} });
    expect((await postBooking(apiKey, bookingBody(service.id, at(3, "12:00")))).status).toBe(201);
    // The whole object is replaced: {} removes both limits; other fields keep theirs.
    const removed = await json(await patchService(apiKey, service.id, { limits: {} }));
    expect(removed).toMatchObject({ limits: { perDay: null, perWeek: null }, maxActivePerCustomer: 5 });
    expect((await postBooking(apiKey, bookingBody(service.id, at(3, "13:00")))).status).toBe(201);
    const cleared = await json(
      await patchService(apiKey, service.id, { maxActivePerCustomer: null, assignment: "balanced" }),
    );
    expect(cleared).toMatchObject({ maxActivePerCustomer: null, assignment: "balanced" });
    expect(await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).toEqual(cleared);
  });

  it("active=false moves the service out of the default list", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const res = await patchService(apiKey, service.id, { active: false });
    expect(res.status).toBe(200);
    expect((await json(res)).active).toBe(false);
    expect(await totalOf(apiKey, "/services")).toBe(0);
    expect(await totalOf(apiKey, "/services?active=false")).toBe(1);
  });

  it("replaces the weekly schedule and clears the description with null", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { description: "Old" });
    const weeklySchedule = { sat: [{ start: "10:00", end: "14:00" }] };
    const res = await patchService(apiKey, service.id, { weeklySchedule, description: null });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ weeklySchedule, description: null });
  });

  it("replaces providerIds, [] clears them, and leaving them out keeps them", async () => {
    const { apiKey } = await createAccount();
    const a = await newProvider(apiKey, "A");
    const b = await newProvider(apiKey, "B");
    const service = await createService(apiKey, { providerIds: [a] });
    const path = `/services/${service.id}`;
    expect((await json(await api("PATCH", path, { key: apiKey, body: { providerIds: [b] } }))).providerIds).toEqual([
      b,
    ]);
    expect((await json(await api("PATCH", path, { key: apiKey, body: { name: "Renamed" } }))).providerIds).toEqual([b]);
    expect((await json(await api("GET", path, { key: apiKey }))).providerIds).toEqual([b]);
    expect((await json(await api("PATCH", path, { key: apiKey, body: { providerIds: [] } }))).providerIds).toEqual([]);
    expect((await json(await api("GET", path, { key: apiKey }))).providerIds).toEqual([]);
  });

  it("sets the documented maximum of 50 providerIds and 5 resourceIds; of concurrent PATCHes under one If-Match only the winner's list is stored (issue 36)", async () => {
    const { apiKey } = await createAccount();
    const { providerIds, resourceIds } = await mostLinks(apiKey);
    const service = await createService(apiKey);
    const res = await patchService(apiKey, service.id, { providerIds, resourceIds });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({
      providerIds: [...providerIds].sort(),
      resourceIds: [...resourceIds].sort(),
    });
    const tag = res.headers.get("ETag") ?? "";
    const lists = [providerIds.slice(1), providerIds.slice(2), providerIds.slice(0, 47), providerIds.slice(4)];
    const answers = await Promise.all(
      lists.map((ids) => patchService(apiKey, service.id, { providerIds: ids }, { "If-Match": tag })),
    );
    const won = answers.findIndex((r) => r.status === 200);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    for (const lost of answers.filter((r) => r.status !== 200)) await problem(lost, 412, "precondition_failed");
    expect(await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).toMatchObject({
      providerIds: [...(lists[won] ?? [])].sort(),
      resourceIds: [...resourceIds].sort(),
    });
  });

  it("replaces the date overrides and the calendar follows at once", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { dateOverrides: [{ date: dayOf(3), intervals: [] }] });
    const res = await patchService(apiKey, service.id, { dateOverrides: [] });
    expect((await json(res)).dateOverrides).toEqual([]);
    expect((await postBooking(apiKey, bookingBody(service.id, at(3, "10:00")))).status).toBe(201);
  });

  it("If-Match with the current ETag applies the change and answers the new ETag, which GET then sends", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const etag = (await api("GET", `/services/${service.id}`, { key: apiKey })).headers.get("ETag") as string;
    const res = await patchService(apiKey, service.id, { capacity: 3 }, { "If-Match": etag });
    expect(res.status).toBe(200);
    const newTag = res.headers.get("ETag");
    expect(newTag).not.toBe(etag);
    expect((await json(res)).capacity).toBe(3);
    expect((await api("GET", `/services/${service.id}`, { key: apiKey })).headers.get("ETag")).toBe(newTag);
  });

  it("a create decided before a deactivation is refused after the PATCH answered; the API says inactive", async () => {
    const s = await withStaleSnapshot();
    expect((await patchService(s.apiKey, s.serviceId, { active: false })).status).toBe(200);
    const late = await calendarStub(s.businessId, s.serviceId).createBooking({
      service: s.stale,
      booking: draftOf(bookingBody(s.serviceId, at(3, "10:00"))),
      customerId: null,
    });
    expect(late).toMatchObject({ ok: false, refusal: { code: "service_changed" } });
    await problem(await postBooking(s.apiKey, bookingBody(s.serviceId, at(3, "10:00"))), 422, "service_inactive");
  });

  it("a create decided before the capacity was lowered is refused; decided again it is fully booked", async () => {
    const s = await withStaleSnapshot({ capacity: 2 });
    expect((await postBooking(s.apiKey, bookingBody(s.serviceId, at(3, "11:00")))).status).toBe(201);
    expect((await patchService(s.apiKey, s.serviceId, { capacity: 1 })).status).toBe(200);
    const late = await calendarStub(s.businessId, s.serviceId).createBooking({
      service: s.stale,
      booking: draftOf(bookingBody(s.serviceId, at(3, "11:00"))),
      customerId: null,
    });
    expect(late).toMatchObject({ ok: false, refusal: { code: "service_changed" } });
    const res = await postBooking(s.apiKey, bookingBody(s.serviceId, at(3, "11:00")));
    await problem(res, 409, "slot_unavailable");
  });

  it("creates keep working after a change: the calendar learns the new version from them too", async () => {
    const s = await withStaleSnapshot();
    expect((await patchService(s.apiKey, s.serviceId, { name: "Renamed" })).status).toBe(200);
    expect((await postBooking(s.apiKey, bookingBody(s.serviceId, at(3, "12:00")))).status).toBe(201);
  });

  it("every change moves the ETag, also for concurrent changes in the same millisecond", async () => {
    const s = await withStaleSnapshot();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => patchService(s.apiKey, s.serviceId, { name: `Name ${i}` })),
    );
    const tags = answers.map((r) => r.headers.get("ETag"));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(tags).size).toBe(6);
    const current = await api("GET", `/services/${s.serviceId}`, { key: s.apiKey });
    expect(tags).toContain(current.headers.get("ETag"));
    expect((await json(current)).name).toMatch(/^Name \d$/);
  });
});

describe("error", () => {
  const invalidPatches: [string, Record<string, unknown>, string][] = [
    ["an empty body", {}, "(root)"],
    ["an unknown field", { colour: "red" }, "colour"],
    ["an unknown time zone", { timezone: "Mars/Olympus" }, "timezone"],
    [
      "an overlapping schedule",
      {
        weeklySchedule: {
          mon: [
            { start: "09:00", end: "12:00" },
            { start: "10:00", end: "11:00" },
          ],
        },
      },
      "weeklySchedule.mon.1",
    ],
    ["capacity 0", { capacity: 0 }, "capacity"],
    ["a null name", { name: null }, "name"],
    ["limits.perDay 0", { limits: { perDay: 0 } }, "limits.perDay"],
    ["a negative limits.perWeek", { limits: { perWeek: -7 } }, "limits.perWeek"],
    ["a fractional limits.perDay", { limits: { perDay: 0.5 } }, "limits.perDay"],
    ['limits.perWeek "10"', { limits: { perWeek: "10" } }, "limits.perWeek"],
    ["a huge limits.perWeek", { limits: { perWeek: 1e12 } }, "limits.perWeek"],
    ["null limits", { limits: null }, "limits"],
    ["maxActivePerCustomer 0", { maxActivePerCustomer: 0 }, "maxActivePerCustomer"],
    ["maxActivePerCustomer 1,000", { maxActivePerCustomer: 1000 }, "maxActivePerCustomer"],
    ["a null assignment", { assignment: null }, "assignment"],
  ];

  it.each(invalidPatches)("rejects %s with 422 and changes nothing", async (_, body, path) => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    await validationError(await patchService(apiKey, service.id, body), path);
    expect(await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).toEqual(service);
  });

  it("an unknown id is 404 not_found", async () => {
    const { apiKey } = await createAccount();
    await problem(await patchService(apiKey, "svc_unknown", { name: "x" }), 404, "not_found");
  });

  it("a stale If-Match is 412 with the current ETag, and changes neither the service nor its providers", async () => {
    const { apiKey } = await createAccount();
    const a = await newProvider(apiKey, "A");
    const service = await createService(apiKey, { providerIds: [a] });
    const current = (await api("GET", `/services/${service.id}`, { key: apiKey })).headers.get("ETag");
    const res = await patchService(apiKey, service.id, { providerIds: [], name: "Lost" }, { "If-Match": '"stale"' });
    await problem(res, 412, "precondition_failed");
    expect(res.headers.get("ETag")).toBe(current);
    expect(await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).toEqual(service);
  });

  it("a body that is not JSON is 415 and changes nothing", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const res = await api("PATCH", `/services/${service.id}`, {
      key: apiKey,
      rawBody: JSON.stringify({ name: "Plain" }),
      headers: { "Content-Type": "text/plain" },
    });
    await problem(res, 415, "unsupported_media_type");
    expect(await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).toEqual(service);
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge, nothing changed", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    await expectUnauthorized(await api("PATCH", `/services/${service.id}`, { body: { name: "Hijacked" } }), false);
    expect(await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).toEqual(service);
  });

  it("a revoked key: 401, nothing changed", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const res = await patchService(await revokedKey(businessId), service.id, { name: "Hijacked" });
    await expectUnauthorized(res, true);
    expect(await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).toEqual(service);
  });

  it("another business gets the 404 of an unknown id and changes nothing", async () => {
    const owner = await createAccount("Owner Spa");
    const other = await createAccount("Other");
    const service = await createService(owner.apiKey);
    const unknownId = unknownIdLike(service.id);
    await expectNotFoundLikeUnknown(
      await patchService(other.apiKey, service.id, { name: "Hijacked", active: false }),
      service.id,
      await patchService(other.apiKey, unknownId, { name: "Hijacked", active: false }),
      unknownId,
      ["Owner Spa", owner.businessId],
    );
    expect(await json(await api("GET", `/services/${service.id}`, { key: owner.apiKey }))).toEqual(service);
  });

  it("another business cannot set or lift a service's limits: a 404 as for an unknown id, and the limits stay", async () => {
    const owner = await createAccount("Owner");
    const other = await createAccount("Other");
    const service = await createService(owner.apiKey, { limits: { perDay: 1 }, maxActivePerCustomer: 1 });
    const lift = await patchService(other.apiKey, service.id, { limits: {}, maxActivePerCustomer: null });
    await problem(lift, 404, "not_found");
    expect(await json(await api("GET", `/services/${service.id}`, { key: owner.apiKey }))).toEqual(service);
    expect((await postBooking(owner.apiKey, bookingBody(service.id, at(3, "09:00")))).status).toBe(201);
    expect((await postBooking(owner.apiKey, bookingBody(service.id, at(3, "10:00")))).status).toBe(409);
  });

  it("another business's provider is refused like an unknown one, without naming that business", async () => {
    const owner = await createAccount("Owner");
    const other = await createAccount("Other");
    const mine = await newProvider(owner.apiKey, "Mine");
    const foreign = await newProvider(other.apiKey, "Theirs");
    const service = await createService(owner.apiKey, { providerIds: [mine] });
    const patch = await patchService(owner.apiKey, service.id, { providerIds: [foreign] });
    const entry = await validationError(patch, "providerIds.0");
    expect(entry.message).not.toContain(other.businessId);
    expect(await json(await api("GET", `/services/${service.id}`, { key: owner.apiKey }))).toEqual(service);
  });
});
