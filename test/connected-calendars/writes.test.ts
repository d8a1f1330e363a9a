/**
 * Bookings out (`writeBookings`): each booking of the person is written into their calendar on a
 * real CalDAV server as one event at `{calendar}/{bookingId}.ics` (UID the booking id), moved on
 * reschedule and deleted on cancel; read back from Xandikos. The object never reads its own events
 * back as busy, and reads repeated any number of times never duplicate or lose one.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, json, utc } from "../support/api";
import { at, book, bookingBody, plus, postBooking } from "../support/bookings";
import { connect, eventsIn, newCollection, providerStub, syncNow } from "../support/connected-calendars";
import { eventually } from "../support/eventually";
import { hold, salon } from "../support/fixtures";

/** Waits until the collection holds exactly `expected` (by uid, summary and times). */
async function expectEvents(collection: string, expected: { uid: string; start: string; end: string }[]) {
  const want = expected.map((e) => ({ uid: e.uid, start: utc(e.start), end: utc(e.end) }));
  return eventually(
    async () => {
      const events = await eventsIn(collection);
      const got = events.map((e) => ({ uid: e.uid, start: e.start, end: e.end }));
      return JSON.stringify(got) === JSON.stringify(want) ? events : undefined;
    },
    `events ${JSON.stringify(want)} in the calendar`,
  );
}

describe("bookings written into the person's calendar", () => {
  it("book, move and cancel: one event per booking, moved in place, then deleted", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    const before = await book(s.apiKey, bookingBody(s.cut, at(2, "09:00")));
    const calendar = await connect(s.apiKey, person, { url: collection, writeBookings: true });
    expect(calendar.writeBookings).toBe(true);
    // A booking made before the calendar was connected is written too.
    await expectEvents(collection, [{ uid: before.id, start: before.startTime, end: before.endTime }]);

    const booked = await book(s.apiKey, bookingBody(s.cut, at(3, "10:00")));
    const events = await expectEvents(collection, [
      { uid: before.id, start: before.startTime, end: before.endTime },
      { uid: booked.id, start: booked.startTime, end: booked.endTime },
    ]);
    expect(events[1]).toMatchObject({ name: `${booked.id}.ics`, summary: "Cut" });

    const moved = await api("POST", `/bookings/${booked.id}/reschedule`, {
      key: s.apiKey,
      body: { startTime: at(4, "14:00"), endTime: plus(at(4, "14:00"), 30) },
    });
    expect(moved.status).toBe(200);
    await expectEvents(collection, [
      { uid: before.id, start: before.startTime, end: before.endTime },
      { uid: booked.id, start: at(4, "14:00"), end: plus(at(4, "14:00"), 30) },
    ]);

    expect((await api("POST", `/bookings/${booked.id}/cancel`, { key: s.apiKey, body: {} })).status).toBe(200);
    await expectEvents(collection, [{ uid: before.id, start: before.startTime, end: before.endTime }]);
  });

  it("a booking made from a hold is written under the booking's id, not the hold's", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    await connect(s.apiKey, person, { url: collection, writeBookings: true });
    const held = await hold(s.apiKey, s.cut, at(3, "11:00"));
    const res = await postBooking(s.apiKey, {
      holdId: held.id,
      customerName: "Ada Lovelace",
      customerEmail: "ada@example.com",
    });
    expect(res.status).toBe(201);
    const booked = await json(res);
    await expectEvents(collection, [{ uid: booked.id, start: booked.startTime, end: booked.endTime }]);
  });

  it("its own events are never read back as busy, and repeated reads neither duplicate nor lose them", async () => {
    // Two seats a session: a second customer can join while the first booking's event is in the calendar.
    const s = await salon(1, { capacity: 2 });
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    const calendar = await connect(s.apiKey, person, { url: collection, writeBookings: true });
    const first = await book(s.apiKey, bookingBody(s.cut, at(3, "10:00")));
    await expectEvents(collection, [{ uid: first.id, start: first.startTime, end: first.endTime }]);
    for (let i = 0; i < 3; i++) {
      expect((await syncNow(s.apiKey, person, calendar.id)).syncStatus).toBe("ok");
      await runDurableObjectAlarm(providerStub(s.businessId, person));
    }
    expect(
      (await providerStub(s.businessId, person).timeBetween(Date.parse(at(3, "00:00")), Date.parse(at(4, "00:00"))))
        .busy,
    ).toEqual([]);
    const second = await book(s.apiKey, bookingBody(s.cut, at(3, "10:00"), { providerId: person }));
    await expectEvents(collection, [
      { uid: first.id, start: first.startTime, end: first.endTime },
      { uid: second.id, start: second.startTime, end: second.endTime },
    ]);
    expect((await syncNow(s.apiKey, person, calendar.id)).syncStatus).toBe("ok");
    expect((await eventsIn(collection)).map((e) => e.uid).sort()).toEqual([first.id, second.id].sort());
  });

  it("an event edited in the calendar app is written again under its new ETag when the booking moves", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    await connect(s.apiKey, person, { url: collection, writeBookings: true });
    const booked = await book(s.apiKey, bookingBody(s.cut, at(3, "10:00")));
    await expectEvents(collection, [{ uid: booked.id, start: booked.startTime, end: booked.endTime }]);
    // The person edits the event on their phone: its ETag changes.
    const member = `${collection}${booked.id}.ics`;
    const current = await (await fetch(member)).text();
    const edited = await fetch(member, {
      method: "PUT",
      headers: { "Content-Type": "text/calendar; charset=utf-8" },
      body: current.replace(/SUMMARY:[^\r\n]*/, "SUMMARY:Cut (moved desk)"),
    });
    expect([200, 201, 204]).toContain(edited.status);
    const moved = await api("POST", `/bookings/${booked.id}/reschedule`, {
      key: s.apiKey,
      body: { startTime: at(3, "15:00"), endTime: plus(at(3, "15:00"), 30) },
    });
    expect(moved.status).toBe(200);
    const events = await expectEvents(collection, [
      { uid: booked.id, start: at(3, "15:00"), end: plus(at(3, "15:00"), 30) },
    ]);
    expect(events[0]?.summary).toBe("Cut");
  });
});
