/**
 * Changing who performs a service while it has bookings: no slot and no person is ever over
 * capacity, the slot calendar agrees with booking, and a move says what to do when the booking's
 * person no longer performs the service.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { providerCalendarOf } from "../../src/calendar/stubs";
import { api, createAccount, createService, json, problem, validationError } from "../support/api";
import { at, book, bookingBody, plus, postBooking, slotAt } from "../support/bookings";

const DAY = [{ start: "09:00", end: "17:00" }];
const everyDay = { mon: DAY, tue: DAY, wed: DAY, thu: DAY, fri: DAY, sat: DAY, sun: DAY };

async function newProvider(key: string, name: string) {
  const res = await api("POST", "/providers", { key, body: { name, timezone: "UTC", weeklySchedule: everyDay } });
  expect(res.status).toBe(201);
  return (await json(res)).id as string;
}

const patch = (key: string, id: string, body: unknown) => api("PATCH", `/services/${id}`, { key, body });
const reschedule = (key: string, id: string, startTime: string, extra: Record<string, unknown> = {}) =>
  api("POST", `/bookings/${id}/reschedule`, { key, body: { startTime, endTime: plus(startTime, 30), ...extra } });
const claimIds = async (businessId: string, providerId: string) =>
  (await providerCalendarOf(env, businessId, providerId).snapshot()).claims.map((c) => c.claimId.split(".")[0]);

describe("a service gets providers while it has bookings", () => {
  it("a booking made before keeps its seat: the slot shows it, and the same slot is refused", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { capacity: 1 });
    const start = at(3, "10:00");
    await book(apiKey, bookingBody(service.id, start));
    const provider = await newProvider(apiKey, "Stylist");
    expect((await patch(apiKey, service.id, { providerIds: [provider] })).status).toBe(200);
    expect(await slotAt(apiKey, service.id, start)).toMatchObject({
      capacity: 1,
      booked: 1,
      remaining: 0,
      bookable: false,
      providers: [],
    });
    const again = await problem(await postBooking(apiKey, bookingBody(service.id, start)), 409, "slot_unavailable");
    expect(again.reason).toBe("no_provider_available");
    const named = await postBooking(apiKey, bookingBody(service.id, start, { providerId: provider }));
    expect((await problem(named, 409, "slot_unavailable")).reason).toBe("fully_booked");
  });

  it("moving that booking assigns it a provider, whose time is then claimed for every service", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const booking = await book(apiKey, bookingBody(service.id, at(3, "10:00")));
    const provider = await newProvider(apiKey, "Stylist");
    await patch(apiKey, service.id, { providerIds: [provider] });
    const moved = await reschedule(apiKey, booking.id, at(3, "12:00"));
    expect(moved.status).toBe(200);
    expect((await json(moved)).providerId).toBe(provider);
    expect(await claimIds(businessId, provider)).toEqual([booking.id]);
    // The person is now busy at 12:00 for another service too.
    const other = await createService(apiKey, { name: "Colour", providerIds: [provider] });
    await problem(await postBooking(apiKey, bookingBody(other.id, at(3, "12:00"))), 409, "slot_unavailable");
    // And the old time is free again.
    expect(await slotAt(apiKey, service.id, at(3, "10:00"))).toMatchObject({ remaining: 1, providers: [provider] });
  });
});

describe("a booking's provider leaves the service", () => {
  it("moving it without providerId is a 422 that says to choose one; with one who stays it moves", async () => {
    const { apiKey, businessId } = await createAccount();
    const [p, q] = [await newProvider(apiKey, "P"), await newProvider(apiKey, "Q")];
    const service = await createService(apiKey, { providerIds: [p, q] });
    const booking = await book(apiKey, bookingBody(service.id, at(3, "10:00"), { providerId: p }));
    expect((await patch(apiKey, service.id, { providerIds: [q] })).status).toBe(200);
    const refused = await validationError(await reschedule(apiKey, booking.id, at(3, "11:00")), "providerId");
    expect(refused.message).toContain(p);
    const unchanged = await json(await api("GET", `/bookings/${booking.id}`, { key: apiKey }));
    expect(unchanged).toMatchObject({ startTime: booking.startTime, providerId: p });
    const moved = await reschedule(apiKey, booking.id, at(3, "11:00"), { providerId: q });
    expect(moved.status).toBe(200);
    expect(await claimIds(businessId, p)).toEqual([]);
    expect(await claimIds(businessId, q)).toEqual([booking.id]);
  });

  it("on a service left with no providers the moved booking has none, and the person's time is freed", async () => {
    const { apiKey, businessId } = await createAccount();
    const p = await newProvider(apiKey, "P");
    const service = await createService(apiKey, { providerIds: [p] });
    const booking = await book(apiKey, bookingBody(service.id, at(3, "10:00")));
    expect((await patch(apiKey, service.id, { providerIds: [] })).status).toBe(200);
    const moved = await reschedule(apiKey, booking.id, at(3, "11:00"));
    expect(moved.status).toBe(200);
    expect((await json(moved)).providerId).toBeNull();
    expect(await claimIds(businessId, p)).toEqual([]);
  });

  it("removing every provider is refused while their sessions overlap beyond the service's seats", async () => {
    const { apiKey } = await createAccount();
    const [p, q] = [await newProvider(apiKey, "P"), await newProvider(apiKey, "Q")];
    const service = await createService(apiKey, { providerIds: [p, q] });
    const first = await book(apiKey, bookingBody(service.id, at(3, "10:00"), { providerId: p }));
    const second = await book(apiKey, bookingBody(service.id, at(3, "10:00"), { providerId: q }));
    const refused = await problem(await patch(apiKey, service.id, { providerIds: [] }), 409, "bookings_conflict");
    expect(refused.conflicts[0].bookingIds).toEqual([first.id, second.id].sort());
    const still = await json(await api("GET", `/services/${service.id}`, { key: apiKey }));
    expect(still.providerIds).toEqual([p, q].sort());
  });
});

describe("a held person leaves the service before the hold is booked", () => {
  it("the booking keeps the person and their time for good", async () => {
    const { apiKey, businessId } = await createAccount();
    const [p, q] = [await newProvider(apiKey, "P"), await newProvider(apiKey, "Q")];
    const service = await createService(apiKey, { providerIds: [p, q] });
    const start = at(3, "10:00");
    const hold = await json(
      await api("POST", "/holds", {
        key: apiKey,
        body: { serviceId: service.id, startTime: start, endTime: plus(start, 30), providerId: p },
      }),
    );
    await patch(apiKey, service.id, { providerIds: [q] });
    const booked = await postBooking(apiKey, { holdId: hold.id, customerName: "Ada", customerEmail: "a@example.com" });
    expect(booked.status).toBe(201);
    expect((await json(booked)).providerId).toBe(p);
    const claims = (await providerCalendarOf(env, businessId, p).snapshot()).claims;
    expect(claims).toMatchObject([{ claimId: hold.id, expiresAt: null }]);
  });
});
