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
