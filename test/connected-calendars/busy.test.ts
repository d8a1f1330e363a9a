/**
 * Busy times in: events in a person's own calendar on a real CalDAV server (Xandikos) refuse
 * claims on their time (409 `slot_unavailable`, reason `provider_busy`) and take them out of the
 * slot calendar — single, recurring (EXDATE, a moved instance, a VTIMEZONE across DST), all-day and
 * floating events in the person's zone — while transparent and cancelled ones block nothing, and
 * an event deleted in the calendar frees its time on the next read.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { json, problem } from "../support/api";
import { at, availability, bookingBody, dayOf, plus, postBooking } from "../support/bookings";
import {
  connect,
  deleteEvent,
  newCollection,
  providerStub,
  putEvent,
  syncNow,
  vcalendar,
  vevent,
} from "../support/connected-calendars";
import { salon } from "../support/fixtures";

/** Which of a day's 30-minute slots of the service the person can take (start times `HH:MM`, UTC). */
async function freeTimes(key: string, serviceId: string, day: number): Promise<string[]> {
  const body = await availability(key, serviceId, at(day, "09:00"), at(day, "17:00"));
  return body.slots
    .filter((s: { bookable: boolean }) => s.bookable)
    .map((s: { startTime: string }) => s.startTime.slice(11, 16));
}

const HALF_HOURS = Array.from(
  { length: 16 },
  (_, i) => `${String(9 + Math.floor(i / 2)).padStart(2, "0")}:${i % 2 ? "30" : "00"}`,
);
const except = (...taken: string[]) => HALF_HOURS.filter((t) => !taken.includes(t));

const BERLIN = [
  "BEGIN:VTIMEZONE",
  "TZID:Europe/Berlin",
  "BEGIN:DAYLIGHT",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "TZNAME:CEST",
  "DTSTART:19700329T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
  "END:DAYLIGHT",
  "BEGIN:STANDARD",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "TZNAME:CET",
  "DTSTART:19701025T030000",
  "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
  "END:STANDARD",
  "END:VTIMEZONE",
].join("\r\n");

/** `YYYYMMDD` of the UTC day `days` ahead. */
const compact = (days: number) => dayOf(days).replaceAll("-", "");

describe("busy times from the person's own calendar", () => {
  it("a single event refuses a booking over it and takes its slots out of the slot calendar", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    await putEvent(collection, "dentist", vcalendar(vevent("dentist-1", at(3, "10:00"), at(3, "11:00"))));
    const calendar = await connect(s.apiKey, person, { url: collection });
    expect(calendar.syncStatus).toBe("ok");
    expect(await freeTimes(s.apiKey, s.cut, 3)).toEqual(except("10:00", "10:30"));
    const named = bookingBody(s.cut, at(3, "10:30"), { providerId: person });
    const refused = await problem(await postBooking(s.apiKey, named), 409, "slot_unavailable");
    expect(refused.reason).toBe("provider_busy");
    // Assigned automatically, the only person is busy: nobody is available.
    const anyone = await problem(
      await postBooking(s.apiKey, bookingBody(s.cut, at(3, "10:00"))),
      409,
      "slot_unavailable",
    );
    expect(anyone.reason).toBe("no_provider_available");
    // Touching is not overlapping: 09:30–10:00 and 11:00–11:30 are free.
    expect((await postBooking(s.apiKey, bookingBody(s.cut, at(3, "09:30")))).status).toBe(201);
    expect((await postBooking(s.apiKey, bookingBody(s.cut, at(3, "11:00")))).status).toBe(201);
  });

  it("a recurring event blocks each instance: EXDATE frees one, a RECURRENCE-ID override moves one", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    // Every day at 12:00 UTC for 5 days from day 2; day 3 excluded; day 4's instance moved to 15:00.
    const series = vevent(
      "standup",
      at(2, "12:00"),
      at(2, "12:30"),
      "RRULE:FREQ=DAILY;COUNT=5",
      `EXDATE:${compact(3)}T120000Z`,
    );
    const moved = [
      "BEGIN:VEVENT",
      "UID:standup",
      "DTSTAMP:20260101T000000Z",
      `RECURRENCE-ID:${compact(4)}T120000Z`,
      `DTSTART:${compact(4)}T150000Z`,
      `DTEND:${compact(4)}T153000Z`,
      "END:VEVENT",
    ].join("\r\n");
    await putEvent(collection, "standup", vcalendar(series, moved));
    await connect(s.apiKey, person, { url: collection });
    expect(await freeTimes(s.apiKey, s.cut, 2)).toEqual(except("12:00"));
    expect(await freeTimes(s.apiKey, s.cut, 3)).toEqual(HALF_HOURS);
    expect(await freeTimes(s.apiKey, s.cut, 4)).toEqual(except("15:00"));
    expect(await freeTimes(s.apiKey, s.cut, 6)).toEqual(except("12:00"));
    expect(await freeTimes(s.apiKey, s.cut, 7)).toEqual(HALF_HOURS);
  });

  it("times in a VTIMEZONE, floating times and all-day events are read in the right zone", async () => {
    // The person works 09:00–17:00 UTC but lives in Berlin: floating and all-day times are Berlin's.
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const { api } = await import("../support/api");
    const res = await api("PATCH", `/providers/${person}`, {
      key: s.apiKey,
      body: {
        timezone: "Europe/Berlin",
        weeklySchedule: {
          mon: [{ start: "00:00", end: "24:00" }],
          tue: [{ start: "00:00", end: "24:00" }],
          wed: [{ start: "00:00", end: "24:00" }],
          thu: [{ start: "00:00", end: "24:00" }],
          fri: [{ start: "00:00", end: "24:00" }],
          sat: [{ start: "00:00", end: "24:00" }],
          sun: [{ start: "00:00", end: "24:00" }],
        },
      },
    });
    expect(res.status).toBe(200);
    const collection = await newCollection();
    const zoned = [
      "BEGIN:VEVENT",
      "UID:zoned",
      "DTSTAMP:20260101T000000Z",
      `DTSTART;TZID=Europe/Berlin:${compact(2)}T140000`,
      `DTEND;TZID=Europe/Berlin:${compact(2)}T150000`,
      "END:VEVENT",
    ].join("\r\n");
    const floating = [
      "BEGIN:VEVENT",
      "UID:floating",
      "DTSTAMP:20260101T000000Z",
      `DTSTART:${compact(3)}T140000`,
      `DTEND:${compact(3)}T150000`,
      "END:VEVENT",
    ].join("\r\n");
    const allDay = [
      "BEGIN:VEVENT",
      "UID:allday",
      "DTSTAMP:20260101T000000Z",
      `DTSTART;VALUE=DATE:${compact(5)}`,
      "END:VEVENT",
    ].join("\r\n");
    await putEvent(collection, "zoned", vcalendar(BERLIN, zoned));
    await putEvent(collection, "floating", vcalendar(floating));
    await putEvent(collection, "allday", vcalendar(allDay));
    await connect(s.apiKey, person, { url: collection });
    const offset = (day: number) => {
      // Berlin is UTC+1 or UTC+2 on that day.
      const noon = new Date(`${dayOf(day)}T12:00:00Z`);
      const local = new Intl.DateTimeFormat("en-GB", {
        timeZone: "Europe/Berlin",
        hour: "2-digit",
        hourCycle: "h23",
      }).format(noon);
      return Number(local) - 12;
    };
    const utc = (day: number, localHour: number) => `${String(localHour - offset(day)).padStart(2, "0")}:00`;
    expect(await freeTimes(s.apiKey, s.cut, 2)).toEqual(except(utc(2, 14), `${utc(2, 14).slice(0, 2)}:30`));
    expect(await freeTimes(s.apiKey, s.cut, 3)).toEqual(except(utc(3, 14), `${utc(3, 14).slice(0, 2)}:30`));
    // All day in Berlin: the whole UTC working day of day 5 is inside it.
    expect(await freeTimes(s.apiKey, s.cut, 5)).toEqual([]);
    expect(await freeTimes(s.apiKey, s.cut, 4)).toEqual(HALF_HOURS);
  });

  it("transparent and cancelled events block nothing, a cancelled instance frees only itself", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    await putEvent(collection, "free", vcalendar(vevent("free", at(2, "10:00"), at(2, "11:00"), "TRANSP:TRANSPARENT")));
    await putEvent(collection, "off", vcalendar(vevent("off", at(2, "13:00"), at(2, "14:00"), "STATUS:CANCELLED")));
    const weekly = vevent("weekly", at(3, "10:00"), at(3, "10:30"), "RRULE:FREQ=DAILY;COUNT=2");
    const cancelledOne = [
      "BEGIN:VEVENT",
      "UID:weekly",
      "DTSTAMP:20260101T000000Z",
      `RECURRENCE-ID:${compact(4)}T100000Z`,
      `DTSTART:${compact(4)}T100000Z`,
      `DTEND:${compact(4)}T103000Z`,
      "STATUS:CANCELLED",
      "END:VEVENT",
    ].join("\r\n");
    await putEvent(collection, "weekly", vcalendar(weekly, cancelledOne));
    await connect(s.apiKey, person, { url: collection });
    expect(await freeTimes(s.apiKey, s.cut, 2)).toEqual(HALF_HOURS);
    expect(await freeTimes(s.apiKey, s.cut, 3)).toEqual(except("10:00"));
    expect(await freeTimes(s.apiKey, s.cut, 4)).toEqual(HALF_HOURS);
  });

  it("the object's alarm reads the calendar again 5 minutes later, with nobody asking", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    const calendar = await connect(s.apiKey, person, { url: collection });
    await putEvent(collection, "new", vcalendar(vevent("new", at(2, "13:00"), at(2, "14:00"))));
    expect(await freeTimes(s.apiKey, s.cut, 2)).toEqual(HALF_HOURS);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.parse(calendar.lastSyncedAt) + 5 * 60_000 + 1_000);
      expect(await runDurableObjectAlarm(providerStub(s.businessId, person))).toBe(true);
    } finally {
      vi.useRealTimers();
    }
    expect(await freeTimes(s.apiKey, s.cut, 2)).toEqual(except("13:00", "13:30"));
  });

  it("an event deleted in the calendar frees its time at the next read; one added blocks from then", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    const member = await putEvent(collection, "gym", vcalendar(vevent("gym", at(2, "10:00"), at(2, "11:00"))));
    const calendar = await connect(s.apiKey, person, { url: collection });
    expect(await freeTimes(s.apiKey, s.cut, 2)).toEqual(except("10:00", "10:30"));
    await deleteEvent(member);
    await putEvent(collection, "lunch", vcalendar(vevent("lunch", at(2, "12:00"), at(2, "12:30"))));
    const read = await syncNow(s.apiKey, person, calendar.id);
    expect(read.syncStatus).toBe("ok");
    expect(await freeTimes(s.apiKey, s.cut, 2)).toEqual(except("12:00"));
    const booked = await postBooking(s.apiKey, bookingBody(s.cut, at(2, "10:00")));
    expect(booked.status).toBe(201);
    expect((await json(booked)).endTime).toBe(new Date(Date.parse(plus(at(2, "10:00"), 30))).toISOString());
  });
});
