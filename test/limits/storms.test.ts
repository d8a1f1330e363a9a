/**
 * Limits and balanced assignment under concurrent bursts: every request below is sent at once,
 * each for a time nothing else holds, so only the limit (or the assignment rule) decides. A limit
 * is checked in the same transaction that takes the seat (docs/consistency.md, "Booking limits"),
 * so a burst never passes it, with or without people to claim (whose tentative rows count).
 */
import { describe, expect, it } from "vitest";
import { createAccount, createService, json } from "../support/api";
import {
  allDay,
  at,
  bookingBody,
  calendarStub,
  d1Bookings,
  plus,
  postBooking,
  statusCounts,
} from "../support/bookings";
import { newProvider, placeHold } from "../support/fixtures";
import { slotsOf } from "./fixtures";

/** `n` distinct half-hour starts of day `days` from 00:00 UTC. */
const starts = (days: number, n: number) => Array.from({ length: n }, (_, i) => plus(at(days, "00:00"), i * 30));

/** The reasons of the 409s among the answers. */
async function reasons(responses: Response[]) {
  const refused = responses.filter((r) => r.status === 409);
  return [...new Set(await Promise.all(refused.map(async (r) => ((await r.json()) as { reason: string }).reason)))];
}

describe("storms", () => {
  it("perDay 3: 20 concurrent creates on distinct free slots of one day book exactly 3", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey, { weeklySchedule: allDay, limits: { perDay: 3 } });
    const answers = await Promise.all(starts(3, 20).map((s) => postBooking(apiKey, bookingBody(service.id, s))));
    expect(statusCounts(answers)).toEqual({ 201: 3, 409: 17 });
    expect(await reasons(answers)).toEqual(["limit_reached"]);
    expect(await d1Bookings(businessId, service.id)).toHaveLength(3);
    expect((await calendarStub(businessId, service.id).snapshot()).counters.active).toBe(3);
    const day = await slotsOf(apiKey, service.id, at(3, "00:00"), at(4, "00:00"));
    expect(day.filter((s) => s.bookable)).toEqual([]);
  });

  it("perDay 3 with three people to claim: 20 concurrent unnamed creates book exactly 3", async () => {
    const { apiKey, businessId } = await createAccount();
    const people = [];
    for (const name of ["Ana", "Ben", "Cy"]) people.push(await newProvider(apiKey, name, { weeklySchedule: allDay }));
    const service = await createService(apiKey, { weeklySchedule: allDay, providerIds: people, limits: { perDay: 3 } });
    const answers = await Promise.all(starts(3, 20).map((s) => postBooking(apiKey, bookingBody(service.id, s))));
    expect(statusCounts(answers)).toEqual({ 201: 3, 409: 17 });
    expect(await reasons(answers)).toEqual(["limit_reached"]);
    expect(await d1Bookings(businessId, service.id)).toHaveLength(3);
  });

  it("perDay 4: 10 concurrent holds and 10 concurrent creates take exactly 4 seats between them", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { weeklySchedule: allDay, limits: { perDay: 4 } });
    const times = starts(3, 20);
    const answers = await Promise.all(
      times.map((s, i) => (i % 2 ? postBooking(apiKey, bookingBody(service.id, s)) : placeHold(apiKey, service.id, s))),
    );
    expect(statusCounts(answers)).toEqual({ 201: 4, 409: 16 });
    expect(await reasons(answers)).toEqual(["limit_reached"]);
  });

  it("maxActivePerCustomer 3: 15 concurrent creates by one e-mail (in any case) book exactly 3", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { weeklySchedule: allDay, maxActivePerCustomer: 3 });
    const emails = ["kim@example.com", "Kim@Example.com", "KIM@EXAMPLE.COM"];
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        postBooking(
          apiKey,
          bookingBody(service.id, starts(3 + (i % 5), 3)[Math.floor(i / 5)] as string, {
            customerEmail: emails[i % 3],
          }),
        ),
      ),
    );
    expect(statusCounts(answers)).toEqual({ 201: 3, 409: 12 });
    expect(await reasons(answers)).toEqual(["limit_reached"]);
    // Someone else still books.
    expect((await postBooking(apiKey, bookingBody(service.id, at(9, "10:00")))).status).toBe(201);
  });

  it("a person's perDay 2: 12 concurrent creates naming them on two services book exactly 2", async () => {
    const { apiKey } = await createAccount();
    const person = await newProvider(apiKey, "Dee", { weeklySchedule: allDay, limits: { perDay: 2 } });
    const cut = await createService(apiKey, { name: "Cut", weeklySchedule: allDay, providerIds: [person] });
    const colour = await createService(apiKey, { name: "Colour", weeklySchedule: allDay, providerIds: [person] });
    const answers = await Promise.all(
      starts(3, 12).map((s, i) =>
        postBooking(apiKey, bookingBody(i % 2 ? cut.id : colour.id, s, { providerId: person })),
      ),
    );
    expect(statusCounts(answers)).toEqual({ 201: 2, 409: 10 });
    expect(await reasons(answers)).toEqual(["limit_reached"]);
  });

  it("balanced: 6 concurrent unnamed creates among 3 free people end 2/2/2, and 12 end 4/4/4", async () => {
    for (const n of [6, 12]) {
      const { apiKey } = await createAccount();
      const people = [];
      for (const name of ["Ana", "Ben", "Cy"]) people.push(await newProvider(apiKey, name, { weeklySchedule: allDay }));
      const service = await createService(apiKey, {
        weeklySchedule: allDay,
        providerIds: people,
        assignment: "balanced",
      });
      const answers = await Promise.all(starts(3, n).map((s) => postBooking(apiKey, bookingBody(service.id, s))));
      expect(statusCounts(answers)).toEqual({ 201: n });
      const given = await Promise.all(answers.map(async (r) => (await json(r)).providerId as string));
      const perProvider = people.map((p) => given.filter((g) => g === p).length);
      expect(perProvider, `${n} bookings`).toEqual([n / 3, n / 3, n / 3]);
    }
  });

  it("balanced spreads a week's bookings on different days 2/2/2, where first gives them all to one person", async () => {
    // Each on a different day of one ISO week: every day's load is 0, so `first` takes the first id.
    const week = new Date(Date.now() + 14 * 86_400_000);
    week.setUTCDate(week.getUTCDate() - ((week.getUTCDay() + 6) % 7));
    for (const assignment of ["balanced", "first"]) {
      const { apiKey } = await createAccount();
      const people = [];
      for (const name of ["Ana", "Ben", "Cy"]) people.push(await newProvider(apiKey, name, { weeklySchedule: allDay }));
      const fields = { name: assignment, weeklySchedule: allDay, providerIds: people, assignment };
      const service = await createService(apiKey, fields);
      const given: string[] = [];
      for (let d = 0; d < 6; d++) {
        const start = `${new Date(week.getTime() + d * 86_400_000).toISOString().slice(0, 10)}T1${d}:00:00Z`;
        given.push((await json(await postBooking(apiKey, bookingBody(service.id, start)))).providerId);
      }
      const perProvider = people.map((p) => given.filter((g) => g === p).length);
      expect(perProvider, assignment).toEqual(assignment === "balanced" ? [2, 2, 2] : [6, 0, 0]);
    }
  });
});
