/**
 * The end of the API's calendar: 9999-12-31T23:59:59.999Z is the last instant its four-digit
 * form can write. Every request that sends a time on year 9999's last day — writes, lists, a
 * series' cancel — gets an answer whose times all match the document's pattern: a 422 naming the
 * time for a write (the horizon, `maxAdvanceDays` ≤ 730, refuses it), the list as asked for a
 * read. The slot calendars' cut is proven in their route tests.
 */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, problem } from "../support/api";
import { allDay, at, book, bookingBody } from "../support/bookings";
import { createResource, newProvider } from "../support/fixtures";
import { documentedPattern, instantsIn, LAST_INSTANT } from "../support/instants";
import { bookWithLink } from "../support/manage-links";

const START = "9999-12-31T22:00:00Z";
const END = "9999-12-31T23:00:00Z";

/** Asserts a 422 `validation_failed` naming `path`, whose body holds no year past 9999. */
async function refusedAt(res: Response, path: string, what: string) {
  const text = await res.text();
  expect(res.status, `${what}: ${text}`).toBe(422);
  expect(text, what).not.toMatch(/[+-]\d{6}-/);
  const body = JSON.parse(text);
  expect(body.code, what).toBe("validation_failed");
  expect(
    body.errors.map((e: { path: string }) => e.path),
    what,
  ).toContain(path);
}

/** A business whose hour-long service, open around the clock, needs a person and a room. */
async function business() {
  const { apiKey } = await createAccount();
  const person = await newProvider(apiKey, "Night shift", { weeklySchedule: allDay });
  const room = (await createResource(apiKey)).id as string;
  const service = await createService(apiKey, {
    durationMinutes: 60,
    slotIntervalMinutes: 30,
    bufferAfterMinutes: 60,
    weeklySchedule: allDay,
    providerIds: [person],
    resourceIds: [room],
  });
  return { apiKey, person, room, serviceId: service.id as string };
}

describe("writes on year 9999's last day", () => {
  it("a booking, hold, visit, series, waitlist entry or move there is a 422 naming its time, never a 500", async () => {
    const b = await business();
    const customer = { customerName: "Ada Lovelace", customerEmail: "ada@example.com" };
    const times = { startTime: START, endTime: END };
    const booking = await book(b.apiKey, bookingBody(b.serviceId, at(2, "10:00"), { endTime: at(2, "11:00") }));
    const { path: link } = await bookWithLink(b.apiKey, b.serviceId, at(3, "10:00"), { endTime: at(3, "11:00") });
    const writes: [string, string, unknown, string][] = [
      ["POST", "/bookings", { serviceId: b.serviceId, ...customer, ...times }, "startTime"],
      ["POST", "/holds", { serviceId: b.serviceId, ...times }, "startTime"],
      ["POST", "/waitlist", { serviceId: b.serviceId, ...customer, ...times }, "startTime"],
      [
        "POST",
        "/series",
        { serviceId: b.serviceId, ...customer, ...times, recurrence: "FREQ=DAILY;COUNT=3" },
        "startTime",
      ],
      // Three hours from 22:00: the later segments would end in year 10000; they are checked first.
      [
        "POST",
        "/appointments",
        { ...customer, startTime: START, segments: [1, 2, 3].map(() => ({ serviceId: b.serviceId })) },
        "segments.1.serviceId",
      ],
      ["POST", `/bookings/${booking.id}/reschedule`, times, "startTime"],
      ["POST", `${link}/reschedule`, times, "startTime"],
    ];
    for (const [method, path, body, field] of writes) {
      await refusedAt(await api(method, path, { key: b.apiKey, body }), field, `${method} ${path}`);
    }
  });
});

describe("reads from year 9999's last day", () => {
  it("lists filtered to it answer 200 with times that match the document's pattern", async () => {
    const b = await business();
    await book(b.apiKey, bookingBody(b.serviceId, at(2, "10:00"), { endTime: at(2, "11:00") }));
    const pattern = await documentedPattern("Booking", "startTime");
    const range = `from=${START}&to=${LAST_INSTANT}`;
    for (const path of [
      `/bookings?${range}`,
      `/bookings?from=${LAST_INSTANT}`,
      `/providers/${b.person}/bookings?${range}`,
      `/resources/${b.room}/bookings?${range}`,
      // Up to the last instant: the booking made is listed, its times as written.
      `/bookings?to=${LAST_INSTANT}`,
    ]) {
      const res = await api("GET", path, { key: b.apiKey });
      expect(res.status, path).toBe(200);
      for (const instant of instantsIn(await json(res))) expect(instant, path).toMatch(pattern);
    }
  });

  it("a series cancelled from the last instant keeps every occurrence: 409, nothing left to cancel", async () => {
    const b = await business();
    const res = await api("POST", "/series", {
      key: b.apiKey,
      body: {
        serviceId: b.serviceId,
        customerName: "Ada Lovelace",
        customerEmail: "ada@example.com",
        startTime: at(2, "10:00"),
        endTime: at(2, "11:00"),
        recurrence: "FREQ=DAILY;COUNT=2",
      },
    });
    expect(res.status).toBe(201);
    const series = await json(res);
    const cancelled = await api("POST", `/series/${series.id}/cancel`, { key: b.apiKey, body: { from: LAST_INSTANT } });
    // Nothing starts then: the documented 409 for a series with nothing left to cancel.
    await problem(cancelled, 409, "invalid_transition");
    const kept = await json(await api("GET", `/series/${series.id}`, { key: b.apiKey }));
    expect(kept.bookings.map((x: { status: string }) => x.status)).toEqual(["CONFIRMED", "CONFIRMED"]);
  });
});
