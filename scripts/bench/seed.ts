/** Seed data for the benchmarks, all through the API and the operator import. */
import { BENCH_ADMIN_TOKEN } from "./server.ts";

export const DAY = 86_400_000;
const SLOT = 5 * 60_000;
/** Slots start tomorrow at 00:00 UTC; slot n is n × 5 minutes later. */
const origin = Math.ceil(Date.now() / DAY) * DAY + DAY;
export const slotTime = (n: number) => new Date(origin + n * SLOT).toISOString();
/** The slot number `days` days after the first slot. */
export const slotOfDay = (days: number) => (days * DAY) / SLOT;

const allDay = [{ start: "00:00", end: "24:00" }];
/** A 5-minute service open all day, every day, two years ahead. */
export const service = (name: string, capacity = 1, providerIds: string[] = []) => ({
  name,
  durationMinutes: 5,
  capacity,
  timezone: "UTC",
  maxAdvanceDays: 730,
  weeklySchedule: { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay },
  ...(providerIds.length > 0 ? { providerIds } : {}),
});
/** A provider who works all day, every day. */
export const provider = (name: string) => ({
  name,
  timezone: "UTC",
  weeklySchedule: { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay },
});
export const bookingBody = (serviceId: string, n: number, who = n, extra: Record<string, string> = {}) =>
  JSON.stringify({
    serviceId,
    customerName: `Customer ${who % 500}`,
    customerEmail: `customer${who % 500}@example.com`,
    startTime: slotTime(n),
    endTime: slotTime(n + 1),
    ...extra,
  });

/** The durations of a visit's three segments (minutes): three services, each its own calendar. */
export const VISIT_MINUTES = [5, 10, 15];
/**
 * Visit n of `serviceIds` (one service per entry of VISIT_MINUTES, in order): it starts at slot
 * n × 6, so visits lie back to back (5 + 10 + 15 = 30 minutes, 6 slots) and no two share a minute
 * of any of the three calendars.
 */
export const visitBody = (serviceIds: string[], n: number) =>
  JSON.stringify({
    customerName: `Customer ${n % 500}`,
    customerEmail: `customer${n % 500}@example.com`,
    startTime: slotTime((n * VISIT_MINUTES.reduce((sum, m) => sum + m, 0) * 60_000) / SLOT),
    segments: serviceIds.map((serviceId) => ({ serviceId })),
  });

const WEEK_SLOTS = slotOfDay(7);
/** Occurrences of the bench's series (weekly). */
export const SERIES_COUNT = 12;
/**
 * Series n of a 5-minute service: weekly, SERIES_COUNT occurrences, the first at slot n of the
 * first week (requests 0–2,015), then slot n − 2,016 of week 12 and so on, so no two series share
 * an occurrence's slot; every occurrence starts within the API's 366 days up to n = 8,063.
 */
export const seriesBody = (serviceId: string, n: number) => {
  const first = (n % WEEK_SLOTS) + Math.floor(n / WEEK_SLOTS) * SERIES_COUNT * WEEK_SLOTS;
  // Slots count from tomorrow's midnight, up to two days from now.
  if (first + (SERIES_COUNT - 1) * WEEK_SLOTS > slotOfDay(364)) throw new Error(`series ${n} is past 366 days`);
  return JSON.stringify({
    serviceId,
    customerName: `Customer ${n % 500}`,
    customerEmail: `customer${n % 500}@example.com`,
    startTime: slotTime(first),
    endTime: slotTime(first + 1),
    recurrence: `FREQ=WEEKLY;COUNT=${SERIES_COUNT}`,
  });
};

/** One API call with a key; answers the status and the JSON body. */
export async function call(url: string, key: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${url}/api/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { id: string } };
}

/**
 * Puts `count` bookings in consecutive slots from `firstSlot` through the operator import (the
 * same rules and calendar transaction as POST /bookings, 250 a call to stay under the 64 KiB
 * body limit); returns how many landed.
 */
export async function seedBookings(url: string, serviceId: string, firstSlot: number, count: number) {
  let imported = 0;
  for (let from = 0; from < count; from += 250) {
    const bookings = Array.from({ length: Math.min(250, count - from) }, (_, i) => {
      const { serviceId: _s, ...booking } = JSON.parse(bookingBody(serviceId, firstSlot + from + i)) as Record<
        string,
        string
      >;
      return booking;
    });
    const res = await fetch(`${url}/internal/services/${serviceId}/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ bookings }),
    });
    if (!res.ok) throw new Error(`import answered ${res.status}: ${await res.text()}`);
    imported += ((await res.json()) as { imported: number }).imported;
  }
  return imported;
}
