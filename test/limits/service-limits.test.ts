/**
 * A service's limits per day, per week and per customer (docs/api-behaviour.md, "Booking limits and
 * assignment"): days and ISO weeks in the service's zone — across its midnight, a 23-hour and a
 * 25-hour day —, what counts (live holds, PENDING bookings) and what frees the count (cancel,
 * release, expiry, completion, a start that passed), moves, visits and series, and the slot
 * calendar agreeing with every refusal.
 */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, problem } from "../support/api";
import { allDay, appointmentStarted, at, book, bookingBody, plus, postBooking } from "../support/bookings";
import { expireHold, hold, placeHold } from "../support/fixtures";
import { bookAt, expectLimit, outcome, slotAt, slotsOf } from "./fixtures";

describe("a limit per day", () => {
  it("counts the service's local day: both sides of its midnight, and a 23-hour day (clocks forward)", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, {
      timezone: "Europe/Berlin",
      weeklySchedule: allDay,
      limits: { perDay: 2 },
    });
    // 2027-03-28 in Berlin runs 23:00Z (27th) to 22:00Z: clocks go from 02:00 to 03:00.
    expect(await outcome(await bookAt(apiKey, service.id, "2027-03-27T22:30:00Z"))).toBe("201"); // 27th 23:30
    expect(await outcome(await bookAt(apiKey, service.id, "2027-03-27T23:30:00Z"))).toBe("201"); // 28th 00:30
    expect(await outcome(await bookAt(apiKey, service.id, "2027-03-28T19:30:00Z"))).toBe("201"); // 28th 21:30
    await expectLimit(await bookAt(apiKey, service.id, "2027-03-28T10:00:00Z")); // 28th 12:00
    await expectLimit(await bookAt(apiKey, service.id, "2027-03-28T21:30:00Z")); // 28th 23:30, its last slot
    expect(await outcome(await bookAt(apiKey, service.id, "2027-03-28T22:00:00Z"))).toBe("201"); // 29th 00:00

    // The slot calendar agrees: every slot of the 28th says why, the 27th's and the 29th's do not.
    const day = await slotsOf(apiKey, service.id, "2027-03-27T23:00:00Z", "2027-03-28T22:00:00Z");
    expect(day).toHaveLength(46);
    expect(day.every((s) => !s.bookable && s.reason === "limit_reached")).toBe(true);
    expect(await slotAt(apiKey, service.id, "2027-03-27T21:00:00Z")).toMatchObject({ bookable: true });
    expect((await slotAt(apiKey, service.id, "2027-03-27T21:00:00Z"))?.reason).toBeUndefined();
    expect(await slotAt(apiKey, service.id, "2027-03-28T23:00:00Z")).toMatchObject({ bookable: true });
  });

  it("counts a 25-hour day (clocks back) as one day", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, {
      timezone: "Europe/Berlin",
      weeklySchedule: allDay,
      limits: { perDay: 2 },
    });
    // 2027-10-31 in Berlin runs 22:00Z (30th) to 23:00Z (31st).
    expect(await outcome(await bookAt(apiKey, service.id, "2027-10-30T22:30:00Z"))).toBe("201"); // 00:30 CEST
    expect(await outcome(await bookAt(apiKey, service.id, "2027-10-31T22:30:00Z"))).toBe("201"); // 23:30 CET
    await expectLimit(await bookAt(apiKey, service.id, "2027-10-31T11:00:00Z"));
    expect(await slotAt(apiKey, service.id, "2027-10-31T01:00:00Z")).toMatchObject({ reason: "limit_reached" });
    expect(await outcome(await bookAt(apiKey, service.id, "2027-10-31T23:00:00Z"))).toBe("201"); // Nov 1st 00:00
  });

  it("counts live holds and PENDING bookings; a release, a cancel, an expiry and a completion free their count", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey, { requiresConfirmation: true, limits: { perDay: 3 } });
    const held = await hold(apiKey, service.id, at(3, "09:00"));
    const pending = [await book(apiKey, bookingBody(service.id, at(3, "10:00")))];
    pending.push(await book(apiKey, bookingBody(service.id, at(3, "11:00"))));
    expect(pending.map((b) => b.status)).toEqual(["PENDING", "PENDING"]);
    await expectLimit(await bookAt(apiKey, service.id, at(3, "12:00")));
    // A hold is refused at the limit too.
    const refusedHold = await placeHold(apiKey, service.id, at(3, "13:00"));
    expect((await problem(refusedHold, 409, "slot_unavailable")).reason).toBe("limit_reached");

    expect((await api("DELETE", `/holds/${held.id}`, { key: apiKey })).status).toBe(204);
    const third = await book(apiKey, bookingBody(service.id, at(3, "12:00")));
    await expectLimit(await bookAt(apiKey, service.id, at(3, "13:00")));

    await api("POST", `/bookings/${pending[0].id}/cancel`, { key: apiKey, body: {} });
    const another = await hold(apiKey, service.id, at(3, "13:00"));
    await expectLimit(await bookAt(apiKey, service.id, at(3, "14:00")));
    await expireHold(businessId, service.id, another.id);
    expect(await outcome(await bookAt(apiKey, service.id, at(3, "14:00")))).toBe("201");
    await expectLimit(await bookAt(apiKey, service.id, at(3, "15:00")));

    // Confirmed, it still counts; completed once it started, it frees its count like a cancel.
    const patch = (status: string) => api("PATCH", `/bookings/${third.id}`, { key: apiKey, body: { status } });
    expect((await patch("CONFIRMED")).status).toBe(200);
    await expectLimit(await bookAt(apiKey, service.id, at(3, "15:00")));
    await appointmentStarted(businessId, service.id, third.id);
    expect((await patch("COMPLETED")).status).toBe(200);
    expect(await outcome(await bookAt(apiKey, service.id, at(3, "15:00")))).toBe("201");
  });

  it("a move inside a full day keeps its place; a move into a full day is refused; the day it leaves has room again", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { limits: { perDay: 2 } });
    const first = await book(apiKey, bookingBody(service.id, at(3, "09:00")));
    await book(apiKey, bookingBody(service.id, at(3, "10:00")));
    const other = await book(apiKey, bookingBody(service.id, at(4, "09:00")));
    const move = (id: string, startTime: string) =>
      api("POST", `/bookings/${id}/reschedule`, { key: apiKey, body: { startTime, endTime: plus(startTime, 30) } });
    expect((await move(first.id, at(3, "15:00"))).status).toBe(200);
    await expectLimit(await move(other.id, at(3, "16:00")));
    expect((await move(first.id, at(4, "15:00"))).status).toBe(200);
    expect(await outcome(await bookAt(apiKey, service.id, at(3, "11:00")))).toBe("201");
    await expectLimit(await bookAt(apiKey, service.id, at(4, "11:00")));
  });
});

describe("a limit per week", () => {
  it("counts the ISO week, Monday to Monday in the service's zone, across the year's end", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, {
      timezone: "Pacific/Auckland",
      weeklySchedule: allDay,
      limits: { perWeek: 2 },
    });
    // Auckland is UTC+13 in January: the week of 2026-12-28 ends at 2027-01-03T11:00Z.
    expect(await outcome(await bookAt(apiKey, service.id, "2026-12-29T21:00:00Z"))).toBe("201"); // Wed 10:00
    expect(await outcome(await bookAt(apiKey, service.id, "2027-01-03T10:30:00Z"))).toBe("201"); // Sun 23:30
    await expectLimit(await bookAt(apiKey, service.id, "2027-01-01T23:00:00Z")); // Sat 12:00
    expect(await slotAt(apiKey, service.id, "2027-01-02T23:00:00Z")).toMatchObject({
      bookable: false,
      reason: "limit_reached",
    });
    // Monday 00:30 there is still Sunday in UTC: the next week, with room.
    expect(await slotAt(apiKey, service.id, "2027-01-03T11:30:00Z")).toMatchObject({ bookable: true });
    expect(await outcome(await bookAt(apiKey, service.id, "2027-01-03T11:30:00Z"))).toBe("201");
  });

  it("a day under its limit in a full week is refused, and the slot calendar says limit_reached", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { limits: { perDay: 5, perWeek: 3 } });
    // Three bookings on the Monday to Wednesday of one ISO week (UTC).
    const monday = new Date(Date.now() + 7 * 86_400_000);
    monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
    const day = (n: number, time: string) =>
      `${new Date(monday.getTime() + n * 86_400_000).toISOString().slice(0, 10)}T${time}:00Z`;
    for (const n of [0, 1, 2]) expect(await outcome(await bookAt(apiKey, service.id, day(n, "10:00")))).toBe("201");
    await expectLimit(await bookAt(apiKey, service.id, day(4, "10:00")));
    const friday = await slotsOf(apiKey, service.id, day(4, "00:00"), day(5, "00:00"));
    expect(friday.every((s) => s.reason === "limit_reached")).toBe(true);
    expect(await outcome(await bookAt(apiKey, service.id, day(7, "10:00")))).toBe("201");
  });
});

describe("a limit per customer", () => {
  it("counts one e-mail's upcoming bookings of the service, whatever its case; a cancel or a start frees one", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey, { maxActivePerCustomer: 2 });
    const other = await createService(apiKey, { name: "Other", maxActivePerCustomer: 2 });
    const as = (email: string) => ({ customerEmail: email });
    const first = await book(apiKey, bookingBody(service.id, at(3, "09:00"), as("Mary@Example.com")));
    await book(apiKey, bookingBody(service.id, at(9, "09:00"), as("mary@example.com")));
    await expectLimit(await bookAt(apiKey, service.id, at(20, "09:00"), as("MARY@EXAMPLE.COM")));
    // Another e-mail, and the same e-mail on another service, are counted apart.
    expect(await outcome(await bookAt(apiKey, service.id, at(20, "09:00"), as("john@example.com")))).toBe("201");
    expect(await outcome(await bookAt(apiKey, other.id, at(20, "09:00"), as("mary@example.com")))).toBe("201");
    // A booking that has started no longer counts.
    await appointmentStarted(businessId, service.id, first.id);
    expect(await outcome(await bookAt(apiKey, service.id, at(20, "10:00"), as("mary@example.com")))).toBe("201");
    await expectLimit(await bookAt(apiKey, service.id, at(21, "10:00"), as("mary@example.com")));
  });

  it("a booking that has started counts again once moved into the future: a move over the limit is refused", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey, { maxActivePerCustomer: 1 });
    const started = await book(apiKey, bookingBody(service.id, at(3, "09:00"), { customerEmail: "lu@example.com" }));
    await appointmentStarted(businessId, service.id, started.id);
    await book(apiKey, bookingBody(service.id, at(4, "09:00"), { customerEmail: "lu@example.com" }));
    const move = await api("POST", `/bookings/${started.id}/reschedule`, {
      key: apiKey,
      body: { startTime: at(5, "09:00"), endTime: at(5, "09:30") },
    });
    await expectLimit(move);
  });

  it("a hold has no customer: its booking is counted, and refused, when it is made from the hold", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { maxActivePerCustomer: 1 });
    await book(apiKey, bookingBody(service.id, at(3, "09:00"), { customerEmail: "ann@example.com" }));
    const held = await hold(apiKey, service.id, at(4, "09:00"));
    const refused = await postBooking(apiKey, {
      holdId: held.id,
      customerName: "Ann",
      customerEmail: "Ann@example.com",
    });
    await expectLimit(refused);
    // The hold stays live for someone else.
    const booked = await postBooking(apiKey, { holdId: held.id, customerName: "Bo", customerEmail: "bo@example.com" });
    expect(booked.status).toBe(201);
  });
});

describe("an inactive service", () => {
  it("lists its slots unbookable without naming a limit, as booking answers service_inactive, not limit_reached", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { weeklySchedule: allDay, limits: { perDay: 1 } });
    expect(await outcome(await bookAt(apiKey, service.id, at(3, "09:00")))).toBe("201");
    expect(await slotAt(apiKey, service.id, at(3, "11:00"))).toMatchObject({
      bookable: false,
      reason: "limit_reached",
    });
    const patched = await api("PATCH", `/services/${service.id}`, { key: apiKey, body: { active: false } });
    expect(patched.status).toBe(200);
    expect(await outcome(await bookAt(apiKey, service.id, at(3, "11:00")))).toBe("422 service_inactive");
    const slot = await slotAt(apiKey, service.id, at(3, "11:00"));
    expect(slot?.bookable).toBe(false);
    expect(slot?.reason).toBeUndefined();
  });
});

describe("visits and series", () => {
  it("a series' occurrences each count: a customer's limit refuses the series (reject) or books up to it (skip)", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { maxActivePerCustomer: 2 });
    const series = (onConflict: string) =>
      api("POST", "/series", {
        key: apiKey,
        body: {
          serviceId: service.id,
          customerName: "Sam",
          customerEmail: "sam@example.com",
          startTime: at(3, "09:00"),
          endTime: at(3, "09:30"),
          recurrence: "FREQ=DAILY;COUNT=3",
          onConflict,
        },
      });
    const rejected = await series("reject");
    expect((await problem(rejected, 409, "slot_unavailable")).reason).toBe("limit_reached");
    const skipped = await series("skip");
    expect(skipped.status).toBe(201);
    const body = await json(skipped);
    expect(body.bookings).toHaveLength(2);
    expect(body.skipped).toHaveLength(1);
    expect(body.skipped[0]).toMatchObject({ reason: "limit_reached" });
    expect(Date.parse(body.skipped[0].startTime)).toBe(Date.parse(at(5, "09:00")));
  });

  it("a skip series over a limit of its own making books up to the limit and skips every other occurrence at once", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { maxActivePerCustomer: 2, limits: { perWeek: 20 } });
    const res = await api("POST", "/series", {
      key: apiKey,
      body: {
        serviceId: service.id,
        customerName: "Sam",
        customerEmail: "sam@example.com",
        startTime: at(3, "09:00"),
        endTime: at(3, "09:30"),
        recurrence: "FREQ=DAILY;COUNT=8",
        onConflict: "skip",
      },
    });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body.bookings).toHaveLength(2);
    expect(body.skipped).toHaveLength(6);
    for (const skipped of body.skipped) expect(skipped).toMatchObject({ reason: "limit_reached" });
    expect(Date.parse(body.bookings[1].startTime)).toBe(Date.parse(at(4, "09:00")));
  });

  it("a visit's segment of a service at its day's limit is refused and named; nothing is booked", async () => {
    const { apiKey } = await createAccount();
    const wash = await createService(apiKey, { name: "Wash" });
    const cut = await createService(apiKey, { name: "Cut", limits: { perDay: 1 } });
    await book(apiKey, bookingBody(cut.id, at(3, "14:00")));
    const res = await api("POST", "/appointments", {
      key: apiKey,
      body: {
        customerName: "Vi",
        customerEmail: "vi@example.com",
        startTime: at(3, "10:00"),
        segments: [{ serviceId: wash.id }, { serviceId: cut.id }],
      },
    });
    const refused = await problem(res, 409, "slot_unavailable");
    expect(refused).toMatchObject({ reason: "limit_reached", segment: 1 });
    expect((await json(await api("GET", `/bookings?serviceId=${wash.id}`, { key: apiKey }))).data).toEqual([]);
  });
});
