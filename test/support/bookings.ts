/**
 * Helpers for the booking-engine tests: relative dates, booking bodies, D1 counts and the
 * calendar Durable Object of a service. Not a test file (vitest only picks up *.test.ts).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, count, eq } from "drizzle-orm";
import type { CalendarSlot } from "../../src/calendar/types";
import { bookings, customers } from "../../src/db/schema";
import { api, createAccount, createCustomer, createService, db, json } from "./api";

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** The UTC date `days` days from today, as YYYY-MM-DD. */
export function dayOf(days: number): string {
  return new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
}

/** `HH:MM` on the UTC day `days` days from today, as an instant with a trailing Z (no fraction). */
export function at(days: number, hhmm: string): string {
  return `${dayOf(days)}T${hhmm}:00Z`;
}

/** An instant `minutes` after `iso`, formatted like `at` (seconds precision, trailing Z). */
export function plus(iso: string, minutes: number): string {
  return `${new Date(Date.parse(iso) + minutes * MINUTE_MS).toISOString().slice(0, 19)}Z`;
}

/** A fresh e-mail address nobody else in the test file uses. */
export const freshEmail = () => `${crypto.randomUUID()}@example.com`;

/** A valid create body for a 30-minute slot starting at `startTime`; `overrides` win. */
export function bookingBody(serviceId: string, startTime: string, overrides: Record<string, unknown> = {}) {
  return {
    serviceId,
    customerName: "Ada Lovelace",
    customerEmail: freshEmail(),
    startTime,
    endTime: plus(startTime, 30),
    ...overrides,
  };
}

/** POST /bookings with an optional Idempotency-Key. */
export function postBooking(key: string, body: unknown, idempotencyKey?: string): Promise<Response> {
  return api("POST", "/bookings", {
    key,
    body,
    headers: idempotencyKey === undefined ? undefined : { "Idempotency-Key": idempotencyKey },
  });
}

/** Creates a booking that must succeed and returns its JSON. */
export async function book(key: string, body: unknown) {
  const res = await postBooking(key, body);
  if (res.status !== 201) throw new Error(`booking create failed: ${res.status} ${await res.text()}`);
  return json(res);
}

/** Bookings of a business (optionally of one service) as D1 holds them. */
export async function d1Bookings(businessId: string, serviceId?: string) {
  return db()
    .select()
    .from(bookings)
    .where(and(eq(bookings.businessId, businessId), serviceId ? eq(bookings.serviceId, serviceId) : undefined));
}

/** Number of bookings and customers of a business in D1. */
export async function d1Counts(businessId: string): Promise<{ bookings: number; customers: number }> {
  const [[b], [c]] = await db().batch([
    db().select({ n: count() }).from(bookings).where(eq(bookings.businessId, businessId)),
    db().select({ n: count() }).from(customers).where(eq(customers.businessId, businessId)),
  ]);
  return { bookings: b?.n ?? 0, customers: c?.n ?? 0 };
}

/** The calendar Durable Object of a business's service, addressed as the Worker does. */
export function calendarStub(businessId: string, serviceId: string) {
  return env.SERVICE_CALENDAR.get(env.SERVICE_CALENDAR.idFromName(`${businessId}:${serviceId}`));
}

/** GET /services/{id}/availability for [from, to); returns the JSON body (asserts 200). */
export async function availability(key: string, serviceId: string, from: string, to: string) {
  const res = await api("GET", `/services/${serviceId}/availability?from=${from}&to=${to}`, { key });
  if (res.status !== 200) throw new Error(`availability failed: ${res.status} ${await res.text()}`);
  return json(res);
}

export type Slot = CalendarSlot;

/** The availability slot that starts at `startTime` (a 1-minute window around it). */
export async function slotAt(key: string, serviceId: string, startTime: string): Promise<Slot | undefined> {
  const body = await availability(key, serviceId, startTime, plus(startTime, 1));
  return body.slots.find((s: Slot) => Date.parse(s.startTime) === Date.parse(startTime));
}

/** A schedule open around the clock every day. */
export const allDay = (() => {
  const day = [{ start: "00:00", end: "24:00" }];
  return { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day };
})();

/** Counts of each status among responses. */
export function statusCounts(responses: Response[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

/**
 * Time passes for one booking: its appointment starts a minute ago in its calendar, the authority
 * that decides status changes (COMPLETED and NO_SHOW are refused before the start).
 */
export async function appointmentStarted(businessId: string, serviceId: string, bookingId: string) {
  await runInDurableObject(calendarStub(businessId, serviceId), (_instance, state) => {
    const row = state.storage.sql.exec<{ record: string }>("SELECT record FROM bookings WHERE id = ?", bookingId).one();
    const record = JSON.parse(row.record) as { startTime: string; endTime: string };
    const duration = Date.parse(record.endTime) - Date.parse(record.startTime);
    const start = Date.now() - 60_000;
    record.startTime = new Date(start).toISOString();
    record.endTime = new Date(start + duration).toISOString();
    state.storage.sql.exec("UPDATE bookings SET record = ? WHERE id = ?", JSON.stringify(record), bookingId);
  });
}

/** The booking as the API, D1 and the calendar hold it, to prove a refusal changed nothing. */
export async function bookingState(s: {
  businessId: string;
  apiKey: string;
  serviceId: string;
  booking: { id: string };
}) {
  const [row] = (await d1Bookings(s.businessId)).filter((b) => b.id === s.booking.id);
  return {
    answer: await json(await api("GET", `/bookings/${s.booking.id}`, { key: s.apiKey })),
    row,
    calendar: await calendarStub(s.businessId, s.serviceId).snapshot(),
  };
}

/** A fresh business with one service (`serviceOverrides` applied): its account and the service's id. */
export async function businessWithService(serviceOverrides: Record<string, unknown> = {}) {
  const account = await createAccount();
  const service = await createService(account.apiKey, serviceOverrides);
  return { ...account, serviceId: service.id as string };
}

/** A fresh business with one service and one customer, ready for bookings. */
export async function businessWithCustomer() {
  const account = await createAccount();
  const service = await createService(account.apiKey);
  const customer = await createCustomer(account.apiKey);
  return { ...account, serviceId: service.id as string, customerId: customer.id as string };
}
