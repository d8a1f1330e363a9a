/**
 * What a day (or one person's week) shows: its columns — each person and each room, or each day
 * of the person's week — with their hours and bookings: the bookings after the role check of the
 * API's list (./bookings.ts), then the people, rooms and service names in one batch.
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Span } from "../../calendar/rules";
import type { Database } from "../../db/client";
import { preparedOnce } from "../../db/prepared";
import { bookings, providers, resources, services } from "../../db/schema";
import { addDays, startOfDay } from "../../pages/i18n/format";
import { loadProvider } from "../../providers/records";
import type { DeskContext } from "../frame/desk";
import { bookingsWithin, type DayBooking, startingWithin } from "./bookings";
import { type ClockChange, clockOf } from "./clock";
import { hoursWithin } from "./hours";

/** One column: whose it is, the stretch it covers, its working hours and its bookings. */
export type Column = {
  key: string;
  name: string;
  kind: "provider" | "resource" | "day" | "other";
  /** The person's week (a day's person column), or the day (a week's day column). */
  href?: string;
  from: number;
  to: number;
  /** The day's clock change, if it has one (place.ts). */
  clock?: ClockChange;
  bands: Span[];
  bookings: DayBooking[];
};

/** A day's or week's columns, every booking read (cancelled ones too, for the fingerprint). */
export type Board = { columns: Column[]; all: DayBooking[]; capped: boolean; serviceNames: Map<string, string> };

/** What a column of a person or room needs of its row: its name and working hours. */
const owner = <T extends typeof providers | typeof resources>(table: T) => ({
  id: table.id,
  name: table.name,
  timezone: table.timezone,
  weeklySchedule: table.weeklySchedule,
  dateOverrides: table.dateOverrides,
});

/**
 * The catalog reads of a day, built once per isolate and read in the bookings' own batch (every
 * value a placeholder): the first 100 active people and rooms, newest first as their API lists
 * read them, and the names of the services booked within the stretch.
 */
const catalogQueries = (db: Database) =>
  preparedOnce(db, "office-day-catalog", (db) => {
    const active = <T extends typeof providers | typeof resources>(table: T) =>
      db
        .select(owner(table))
        .from(table as typeof providers)
        .where(and(eq(table.businessId, sql.placeholder("businessId")), eq(table.active, true)))
        .orderBy(desc(table.id))
        .limit(100)
        .prepare();
    const booked = db
      .select({ id: bookings.serviceId })
      .from(bookings)
      .where(and(...startingWithin()));
    const names = db
      .select({ id: services.id, name: services.name })
      .from(services)
      .where(and(eq(services.businessId, sql.placeholder("businessId")), inArray(services.id, booked)))
      .prepare();
    return { people: active(providers), rooms: active(resources), names };
  });

const nameMap = (rows: { id: string; name: string }[] = []) => new Map(rows.map((row) => [row.id, row.name]));

/**
 * The stretch's bookings with the business's people and rooms (for staff, their own person and no
 * room) and the names of the services booked (none for a fingerprint): one D1 batch after the
 * role check, the columns only, no totals; a staff member's own row is one more read.
 */
async function readDay(c: DeskContext, from: number, to: number, withNames: boolean) {
  const { db } = c.var;
  const { businessId, member } = c.var.caller;
  const q = catalogQueries(db);
  if (member?.role === "staff") {
    const list = await bookingsWithin(c, from, to, undefined, withNames ? [q.names] : []);
    const person = await loadProvider(db, businessId, member.providerId ?? "");
    return { list, people: [person], rooms: [], serviceNames: nameMap(list.alongside[0]) };
  }
  if (!withNames) {
    const list = await bookingsWithin(c, from, to, undefined, [q.people, q.rooms]);
    const [people, rooms] = list.alongside;
    return { list, people, rooms, serviceNames: nameMap() };
  }
  const list = await bookingsWithin(c, from, to, undefined, [q.people, q.rooms, q.names]);
  const [people, rooms, names] = list.alongside;
  return { list, people, rooms, serviceNames: nameMap(names) };
}

const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);
const live = (b: DayBooking) => b.status !== "CANCELLED";

/**
 * The business day `day` (YYYY-MM-DD in the business's zone): a column per person and room; staff
 * see their own. Without `named` (a fingerprint), the services' names are not read.
 */
export async function loadDay(c: DeskContext, day: string, named = true): Promise<Board> {
  const { timezone } = c.var.desk;
  const from = startOfDay(day, timezone);
  const to = startOfDay(addDays(day, 1), timezone);
  const clock = clockOf(day, timezone, from, to);
  const { list, people, rooms, serviceNames } = await readDay(c, from, to, named);
  const shown = list.items.filter(live);
  const columns: Column[] = [
    ...people.sort(byName).map((p) => ({
      key: p.id,
      name: p.name,
      kind: "provider" as const,
      href: `/office/week/${day}/${p.id}`,
      from,
      to,
      clock,
      bands: hoursWithin(p, from, to),
      bookings: shown.filter((b) => b.providerIds.includes(p.id)),
    })),
    ...rooms.sort(byName).map((r) => ({
      key: r.id,
      name: r.name,
      kind: "resource" as const,
      from,
      to,
      clock,
      bands: r.weeklySchedule ? hoursWithin({ ...r, weeklySchedule: r.weeklySchedule }, from, to) : [],
      bookings: shown.filter((b) => b.resourceIds.includes(r.id)),
    })),
  ];
  // Bookings of services without people or rooms belong to no column above: one of their own.
  const loose = shown.filter((b) => b.providerIds.length === 0 && b.resourceIds.length === 0);
  if (loose.length > 0) {
    const other = c.var.desk.m.day.other;
    columns.push({ key: "other", name: other, kind: "other", from, to, clock, bands: [], bookings: loose });
  }
  return { columns, all: list.items, capped: list.capped, serviceNames };
}

/** The Monday of the ISO week `day` falls in. */
export function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** One person's week from the Monday of `day`: a column per day, their hours and bookings. */
export async function loadWeek(
  c: DeskContext,
  day: string,
  providerId: string,
  named = true,
): Promise<Board & { name: string }> {
  const { timezone } = c.var.desk;
  const monday = mondayOf(day);
  const from = startOfDay(monday, timezone);
  const to = startOfDay(addDays(monday, 7), timezone);
  // The list's own check first: another person's week is a 404 to staff, an unknown person to anyone.
  const { db } = c.var;
  const list = await bookingsWithin(c, from, to, providerId, named ? [catalogQueries(db).names] : []);
  const person = await loadProvider(db, c.var.caller.businessId, providerId);
  const serviceNames = nameMap(list.alongside[0]);
  const shown = list.items.filter(live);
  const columns: Column[] = Array.from({ length: 7 }, (_, i) => {
    const date = addDays(monday, i);
    const start = startOfDay(date, timezone);
    const end = startOfDay(addDays(date, 1), timezone);
    return {
      key: date,
      name: date,
      kind: "day" as const,
      href: `/office/day/${date}`,
      from: start,
      to: end,
      clock: clockOf(date, timezone, start, end),
      bands: hoursWithin(person, start, end),
      bookings: shown.filter((b) => b.start >= start && b.start < end),
    };
  });
  return { columns, all: list.items, capped: list.capped, serviceNames, name: person.name };
}
