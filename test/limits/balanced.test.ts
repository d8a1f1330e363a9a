/**
 * Balanced assignment (docs/api-behaviour.md, "Booking limits and assignment"): an unnamed booking
 * goes to the free person with the fewest bookings of the service in the booking's ISO week, ties
 * to the one whose last booking of it was made longest ago (never booked first). Other services'
 * bookings and other weeks do not count; live holds do; visits and series follow the rule per
 * segment and per occurrence.
 */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json } from "../support/api";
import { allDay, book, bookingBody } from "../support/bookings";
import { hold, newProvider } from "../support/fixtures";

/** `HH:00` UTC on day `d` (0 = Monday) of the ISO week `weeks` weeks after next week. */
function weekDay(weeks: number, d: number, hour: number): string {
  const monday = new Date(Date.now() + (7 + 7 * weeks) * 86_400_000);
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  const date = new Date(monday.getTime() + d * 86_400_000).toISOString().slice(0, 10);
  return `${date}T${String(hour).padStart(2, "0")}:00:00Z`;
}

/** A business with three people who work around the clock, and a balanced service of theirs. */
async function team() {
  const { apiKey } = await createAccount();
  const people: string[] = [];
  for (const name of ["Ana", "Ben", "Cy"]) people.push(await newProvider(apiKey, name, { weeklySchedule: allDay }));
  const fields = { weeklySchedule: allDay, providerIds: people };
  const balanced = await createService(apiKey, { ...fields, name: "Balanced", assignment: "balanced" });
  const other = await createService(apiKey, { ...fields, name: "Other" });
  const [ana, ben, cy] = people as [string, string, string];
  return { apiKey, ana, ben, cy, balanced: balanced.id as string, other: other.id as string };
}

const assigned = async (key: string, serviceId: string, start: string) =>
  (await book(key, bookingBody(serviceId, start))).providerId as string;

describe("balanced assignment", () => {
  it("gives each unnamed booking to the person with the fewest of the service that week, ties to the longest unbooked", async () => {
    const t = await team();
    const named = (who: string, d: number) =>
      book(t.apiKey, bookingBody(t.balanced, weekDay(0, d, 9), { providerId: who }));
    await named(t.ana, 0);
    await named(t.ana, 1);
    await named(t.ben, 2);
    // Ana 2, Ben 1, Cy 0: Cy.
    expect(await assigned(t.apiKey, t.balanced, weekDay(0, 3, 10))).toBe(t.cy);
    // Ben 1 and Cy 1: Ben's last was made before Cy's.
    expect(await assigned(t.apiKey, t.balanced, weekDay(0, 3, 11))).toBe(t.ben);
    expect(await assigned(t.apiKey, t.balanced, weekDay(0, 3, 12))).toBe(t.cy);
    // All at 2: Ana's last is the oldest.
    expect(await assigned(t.apiKey, t.balanced, weekDay(0, 3, 13))).toBe(t.ana);
  });

  it("counts only this service's bookings of the booking's week; never booked goes first among equals", async () => {
    const t = await team();
    // Ana: three of another service this week and two of this one last week; Ben: one this week.
    for (const d of [0, 1, 2]) await book(t.apiKey, bookingBody(t.other, weekDay(1, d, 8), { providerId: t.ana }));
    for (const d of [0, 1]) await book(t.apiKey, bookingBody(t.balanced, weekDay(0, d, 8), { providerId: t.ana }));
    await book(t.apiKey, bookingBody(t.balanced, weekDay(1, 4, 8), { providerId: t.ben }));
    // Ana and Cy have none of it this week; Cy was never given one of it.
    expect(await assigned(t.apiKey, t.balanced, weekDay(1, 3, 10))).toBe(t.cy);
    expect(await assigned(t.apiKey, t.balanced, weekDay(1, 3, 11))).toBe(t.ana);
  });

  it("skips a busy person, and counts live holds", async () => {
    const t = await team();
    // Cy is busy then with another service.
    await book(t.apiKey, bookingBody(t.other, weekDay(0, 2, 10), { providerId: t.cy }));
    const first = await assigned(t.apiKey, t.balanced, weekDay(0, 2, 10));
    expect(first).toBe(t.ana);
    const held = await hold(t.apiKey, t.balanced, weekDay(0, 2, 11));
    expect(held.providerId).toBe(t.ben);
    expect(await assigned(t.apiKey, t.balanced, weekDay(0, 2, 12))).toBe(t.cy);
  });

  it("a series' occurrences follow the rule one by one: a daily series of 6 in one week spreads 2/2/2", async () => {
    const t = await team();
    const res = await api("POST", "/series", {
      key: t.apiKey,
      body: {
        serviceId: t.balanced,
        customerName: "Sam",
        customerEmail: "sam@example.com",
        startTime: weekDay(0, 0, 9),
        endTime: weekDay(0, 0, 9).replace("T09:00", "T09:30"),
        recurrence: "FREQ=DAILY;COUNT=6",
      },
    });
    expect(res.status).toBe(201);
    const given = ((await json(res)).bookings as { providerId: string }[]).map((b) => b.providerId);
    expect([t.ana, t.ben, t.cy].map((p) => given.filter((g) => g === p).length)).toEqual([2, 2, 2]);
  });

  it("a series whose first order gives an occurrence to someone who cannot take it still books the one who can", async () => {
    // Found by the model-based test: each retry re-ordered the people, gave an occurrence back to
    // a person whose claim for it the retry before had released (not yet sent), found them busy
    // with that claim, and refused the series (409 no_provider_available).
    const { apiKey } = await createAccount();
    const evening = [
      { start: "00:00", end: "02:00" },
      { start: "18:00", end: "24:00" },
    ];
    const week = { mon: evening, tue: evening, wed: evening, thu: evening, fri: evening, sat: evening, sun: evening };
    // At 12:30 UTC Kolkata's clock says 18:00: only Asha works then.
    const asha = await newProvider(apiKey, "Asha", { timezone: "Asia/Kolkata", weeklySchedule: week });
    const ben = await newProvider(apiKey, "Ben", { timezone: "UTC", weeklySchedule: week });
    const service = await createService(apiKey, { providerIds: [asha, ben], assignment: "balanced" });
    const start = weekDay(0, 0, 12).replace("T12:00", "T12:30");
    const res = await api("POST", "/series", {
      key: apiKey,
      body: {
        serviceId: service.id,
        customerName: "Sam",
        customerEmail: "sam@example.com",
        startTime: start,
        endTime: start.replace("T12:30", "T13:00"),
        recurrence: "FREQ=DAILY;COUNT=3",
      },
    });
    expect(res.status).toBe(201);
    expect(((await json(res)).bookings as { providerId: string }[]).map((b) => b.providerId)).toEqual([
      asha,
      asha,
      asha,
    ]);
  });

  it("a visit's segment of a balanced service goes to the person with the fewest of that service", async () => {
    const t = await team();
    const wash = await createService(t.apiKey, { name: "Wash", weeklySchedule: allDay });
    for (const who of [t.ana, t.cy]) {
      await book(t.apiKey, bookingBody(t.balanced, weekDay(0, 1, who === t.ana ? 8 : 9), { providerId: who }));
    }
    const res = await api("POST", "/appointments", {
      key: t.apiKey,
      body: {
        customerName: "Vi",
        customerEmail: "vi@example.com",
        startTime: weekDay(0, 2, 10),
        segments: [{ serviceId: wash.id }, { serviceId: t.balanced }],
      },
    });
    expect(res.status).toBe(201);
    expect((await json(res)).bookings[1].providerId).toBe(t.ben);
  });
});
