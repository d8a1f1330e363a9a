/**
 * A person's daily limit (docs/api-behaviour.md, "Booking limits and assignment"): their bookings
 * of every service on one day of their own zone, decided by their calendar; an unnamed booking
 * skips a person at their limit, and is refused with `limit_reached` when everyone tried is; holds
 * count while live; a move does not count the booking twice; a team counts for each of its people;
 * the slot calendar lists only the people who can take one more.
 */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json } from "../support/api";
import { allDay, at, book, bookingBody, plus } from "../support/bookings";
import { hold, newProvider } from "../support/fixtures";
import { bookAt, expectLimit, outcome, slotAt } from "./fixtures";

describe("a person's limit per day", () => {
  it("counts their bookings of every service on their own local day", async () => {
    const { apiKey } = await createAccount();
    // Kolkata is UTC+05:30: its day runs 18:30Z to 18:30Z.
    const person = await newProvider(apiKey, "Asha", {
      timezone: "Asia/Kolkata",
      weeklySchedule: allDay,
      limits: { perDay: 2 },
    });
    const cut = await createService(apiKey, { name: "Cut", weeklySchedule: allDay, providerIds: [person] });
    const colour = await createService(apiKey, { name: "Colour", weeklySchedule: allDay, providerIds: [person] });
    expect(await outcome(await bookAt(apiKey, cut.id, at(10, "09:00")))).toBe("201");
    expect(await outcome(await bookAt(apiKey, colour.id, at(10, "12:00")))).toBe("201");
    await expectLimit(await bookAt(apiKey, cut.id, at(10, "14:00"), { providerId: person }));
    // 00:30 in Kolkata of its previous day (still the 10th there) is refused, 00:30 of the next is not.
    await expectLimit(await bookAt(apiKey, colour.id, at(9, "19:00")));
    expect(await outcome(await bookAt(apiKey, colour.id, at(10, "19:00")))).toBe("201");
    // The slot calendar of either service agrees.
    expect(await slotAt(apiKey, cut.id, at(10, "15:00"))).toMatchObject({
      bookable: false,
      reason: "limit_reached",
      providers: [],
    });
    expect(await slotAt(apiKey, colour.id, at(9, "17:00"))).toMatchObject({ bookable: true, providers: [person] });
  });

  it("an unnamed booking skips a person at their limit; with everyone at theirs the reason is limit_reached", async () => {
    const { apiKey } = await createAccount();
    const people = [
      await newProvider(apiKey, "Ana", { limits: { perDay: 1 } }),
      await newProvider(apiKey, "Ben", { limits: { perDay: 1 } }),
    ];
    const cut = await createService(apiKey, { providerIds: people });
    const first = await book(apiKey, bookingBody(cut.id, at(3, "09:00")));
    const other = people.find((p) => p !== first.providerId) as string;
    expect(await slotAt(apiKey, cut.id, at(3, "10:00"))).toMatchObject({ bookable: true, providers: [other] });
    const second = await book(apiKey, bookingBody(cut.id, at(3, "10:00")));
    expect(second.providerId).toBe(other);
    expect(await slotAt(apiKey, cut.id, at(3, "11:00"))).toMatchObject({
      bookable: false,
      reason: "limit_reached",
      providers: [],
    });
    await expectLimit(await bookAt(apiKey, cut.id, at(3, "11:00")));
    await expectLimit(await bookAt(apiKey, cut.id, at(3, "11:00"), { providerId: people[0] }));
    // A person busy at that time, the other at their limit: nobody is free, but not everyone is at a limit.
    const busy = await newProvider(apiKey, "Cy");
    const mixed = await createService(apiKey, { name: "Mixed", providerIds: [people[0], busy] });
    await book(apiKey, bookingBody(mixed.id, at(3, "12:00"), { providerId: busy }));
    const refused = await json(await bookAt(apiKey, mixed.id, at(3, "12:00")));
    expect(refused.reason).toBe("no_provider_available");
    // The next day everyone has room again.
    expect(await outcome(await bookAt(apiKey, cut.id, at(4, "11:00")))).toBe("201");
  });

  it("a live hold counts until it ends; a move inside the full day keeps the booking's place", async () => {
    const { apiKey } = await createAccount();
    const person = await newProvider(apiKey, "Dee", { limits: { perDay: 1 } });
    const cut = await createService(apiKey, { providerIds: [person] });
    const held = await hold(apiKey, cut.id, at(3, "09:00"));
    await expectLimit(await bookAt(apiKey, cut.id, at(3, "12:00")));
    expect((await api("DELETE", `/holds/${held.id}`, { key: apiKey })).status).toBe(204);
    const booking = await book(apiKey, bookingBody(cut.id, at(3, "12:00")));
    const move = (startTime: string) =>
      api("POST", `/bookings/${booking.id}/reschedule`, {
        key: apiKey,
        body: { startTime, endTime: plus(startTime, 30) },
      });
    expect((await move(at(3, "14:00"))).status).toBe(200);
    await expectLimit(await bookAt(apiKey, cut.id, at(3, "10:00")));
    // Moved to another day, it frees this one.
    expect((await move(at(4, "14:00"))).status).toBe(200);
    expect(await outcome(await bookAt(apiKey, cut.id, at(3, "10:00")))).toBe("201");
  });

  it("a team's booking counts for each of its people; one at their limit closes the team's slots", async () => {
    const { apiKey } = await createAccount();
    const ana = await newProvider(apiKey, "Ana", { limits: { perDay: 1 } });
    const ben = await newProvider(apiKey, "Ben");
    const duo = await createService(apiKey, { name: "Duo", providerIds: [ana, ben], providerMode: "all" });
    const solo = await createService(apiKey, { name: "Solo", providerIds: [ana, ben] });
    expect(await outcome(await bookAt(apiKey, duo.id, at(3, "09:00")))).toBe("201");
    expect(await slotAt(apiKey, duo.id, at(3, "11:00"))).toMatchObject({ bookable: false, reason: "limit_reached" });
    await expectLimit(await bookAt(apiKey, duo.id, at(3, "11:00")));
    await expectLimit(await bookAt(apiKey, solo.id, at(3, "11:00"), { providerId: ana }));
    // Ben has no limit: he takes the unnamed booking.
    expect((await book(apiKey, bookingBody(solo.id, at(3, "11:00")))).providerId).toBe(ben);
  });
});
