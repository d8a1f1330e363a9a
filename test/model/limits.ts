/**
 * Booking limits and balanced assignment in the model-based test, written from the documented rules
 * (docs/api-behaviour.md, "Booking limits and assignment") without the engine's code. Services keep
 * their days and weeks in UTC (T0 is a Monday); a person's day is in their own zone. Rows that
 * count: active bookings and live holds (the model has no PENDING ones).
 *
 * Invariants after every command: no day, week, person's day or customer holds more than its
 * limit — or than it held when the limit was last changed (a limit lowered below what is booked
 * keeps those bookings); and in a week of a balanced service whose every row was assigned while
 * every person was free (and none has left), the people's counts differ by at most one.
 */
import {
  claimsOf,
  DAY,
  expectCreate,
  MINUTE,
  type Model,
  type ProviderKey,
  type ServiceKey,
  seatRows,
  T0,
  type Zone,
  zones,
} from "./model";

/** A service's limits as the model keeps them (absent: none). */
export type ServiceLimits = {
  limits?: { perDay?: number; perWeek?: number };
  perCustomer?: number;
  assignment?: "first" | "balanced";
};

/** What each limit allowed when it was last changed: the counts then, by key. */
export type Allowance = Record<string, number>;

const dayIn = (ms: number, zone: Zone) => Math.floor((ms - T0 + zones[zone] * MINUTE) / DAY);
const weekOf = (ms: number) => Math.floor((ms - T0) / (7 * DAY));
const lower = (email: string) => email.toLowerCase();

/** Counts by key of the service's rows (days `d…`, weeks `w…`) and of upcoming bookings per e-mail (`c…`). */
export function serviceCounts(m: Model, key: ServiceKey, exceptId = ""): Allowance {
  const counts: Allowance = {};
  const add = (k: string) => {
    counts[k] = (counts[k] ?? 0) + 1;
  };
  for (const row of seatRows(m, key, exceptId)) {
    add(`d${dayIn(row.start, "UTC")}`);
    add(`w${weekOf(row.start)}`);
  }
  for (const b of m.bookings) {
    if (b.service === key && b.status === "CONFIRMED" && b.id !== exceptId && b.start > m.now && b.email)
      add(`c${lower(b.email)}`);
  }
  return counts;
}

/** Counts per local day of a person's claims (their bookings, team ones too, and live holds, of any service). */
export function providerCounts(m: Model, person: ProviderKey, exceptId = ""): Allowance {
  const counts: Allowance = {};
  for (const c of claimsOf(m, person, exceptId)) {
    const k = `d${dayIn(c.start, m.providers[person].zone)}`;
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return counts;
}

/**
 * Whether one more row of the service starting at `start` is over its limit per day or week
 * (`exceptId`: the booking being moved; `extra`: starts the same request takes first), or, with
 * `email`, over the customer's limit.
 */
export function serviceLimitRefuses(
  m: Model,
  key: ServiceKey,
  start: number,
  { email, exceptId = "", extra = [] }: { email?: string; exceptId?: string; extra?: number[] } = {},
): boolean {
  const service = m.services[key];
  const counts = serviceCounts(m, key, exceptId);
  const more = (k: string, of: (t: number) => string) => extra.filter((t) => of(t) === k).length;
  const day = `d${dayIn(start, "UTC")}`;
  const week = `w${weekOf(start)}`;
  const { perDay, perWeek } = service.limits ?? {};
  if (perDay !== undefined && (counts[day] ?? 0) + more(day, (t) => `d${dayIn(t, "UTC")}`) >= perDay) return true;
  if (perWeek !== undefined && (counts[week] ?? 0) + more(week, (t) => `w${weekOf(t)}`) >= perWeek) return true;
  return email !== undefined && customerLimitRefuses(m, key, email, extra.length, exceptId);
}

/** Whether the customer holds as many upcoming bookings of the service as it allows (`earlier`: more from this request). */
export function customerLimitRefuses(m: Model, key: ServiceKey, email: string, earlier = 0, exceptId = ""): boolean {
  const max = m.services[key].perCustomer;
  return max !== undefined && (serviceCounts(m, key, exceptId)[`c${lower(email)}`] ?? 0) + earlier >= max;
}

/** Whether the person's local day of `start` holds their limit already. */
export function providerLimitRefuses(m: Model, person: ProviderKey, start: number, exceptId = ""): boolean {
  const limit = m.providers[person].perDay;
  if (limit === undefined) return false;
  return (providerCounts(m, person, exceptId)[`d${dayIn(start, m.providers[person].zone)}`] ?? 0) >= limit;
}

/** The service's rows of `person` in the ISO week of `start`. */
const weekLoad = (m: Model, key: ServiceKey, person: ProviderKey, start: number, exceptId = "") =>
  seatRows(m, key, exceptId).filter((r) => r.provider === person && weekOf(r.start) === weekOf(start)).length;

/** Of the free people, those a balanced service may give the booking to: the fewest rows of it that week. */
export function balancedOf(m: Model, key: ServiceKey, start: number, free: ProviderKey[], exceptId = "") {
  if (m.services[key].assignment !== "balanced" || free.length < 2) return free;
  const loads = free.map((p) => weekLoad(m, key, p, start, exceptId));
  const least = Math.min(...loads);
  return free.filter((_, i) => loads[i] === least);
}

/** What the limits of a service or person allow from now on: the counts now (see the module comment). */
export function allowNow(m: Model, key: ServiceKey | ProviderKey): void {
  m.allowance = {
    ...m.allowance,
    [key]: key.startsWith("S") ? serviceCounts(m, key as ServiceKey) : providerCounts(m, key as ProviderKey),
  };
}

/** One booking of a visit or a series, as far as limits see it. */
type Part = { service: ServiceKey; start: number; person: ProviderKey | null };

/**
 * Whether a visit's segments or a series' occurrences may count against one limit together: the
 * engine counts each after those before it, so its answer turns on which person it gives each
 * (the model then accepts either answer, and its invariants judge what was booked).
 */
export function requestInteracts(m: Model, parts: readonly Part[], email?: string): boolean {
  // A team's service takes every one of its people, whoever a part names.
  const could = (part: Part, p: ProviderKey) => {
    const service = m.services[part.service];
    return part.person === p || ((part.person === null || service.mode === "all") && service.providers.includes(p));
  };
  for (const [i, a] of parts.entries()) {
    for (const b of parts.slice(i + 1)) {
      const service = m.services[a.service];
      if (a.service === b.service) {
        if (service.limits?.perDay !== undefined && dayIn(a.start, "UTC") === dayIn(b.start, "UTC")) return true;
        if (service.limits?.perWeek !== undefined && weekOf(a.start) === weekOf(b.start)) return true;
        if (service.perCustomer !== undefined && email !== undefined) return true;
      }
      for (const p of ["P0", "P1"] as const) {
        const { perDay, zone } = m.providers[p];
        if (perDay === undefined || !could(a, p) || !could(b, p) || dayIn(a.start, zone) !== dayIn(b.start, zone))
          continue;
        if ((providerCounts(m, p)[`d${dayIn(a.start, zone)}`] ?? 0) + 2 > perDay) return true;
      }
    }
  }
  return false;
}

/** Whether a balanced service's occurrences share a week: each one's counts then include the ones before. */
export const sharesWeek = (m: Model, parts: readonly Part[]) =>
  parts.some((a, i) =>
    parts
      .slice(i + 1)
      .some(
        (b) =>
          a.service === b.service &&
          m.services[a.service].assignment === "balanced" &&
          weekOf(a.start) === weekOf(b.start),
      ),
  );

/** Whether a booking (or hold) of this time would be placed by balanced assignment with every person free. */
export function evenly(m: Model, key: ServiceKey, start: number, end: number, asked: ProviderKey | null): boolean {
  const service = m.services[key];
  if (asked || service.assignment !== "balanced" || service.mode !== "one") return false;
  const active = service.providers.filter((p) => m.providers[p].active);
  const free = expectCreate(m, key, start, end, null, { balance: false });
  return active.length > 0 && "candidates" in free && active.every((p) => free.candidates?.includes(p));
}

/** A row placed by balanced assignment while every person was free: remembered for its week. */
export function placedEvenly(m: Model, key: ServiceKey, id: string, start: number): void {
  const service = m.services[key];
  const week = `${key}|w${weekOf(start)}`;
  const people = service.providers.filter((p) => m.providers[p].active).join(",");
  m.evenPlaced ??= {};
  const entry = m.evenPlaced[week] ?? { ids: [], people };
  if (entry.people !== people) entry.people = "";
  // A row of the week placed otherwise (named, moved) weighed on this placement: even if it goes
  // later, the week's counts no longer show balanced assignment alone, so the week is not judged.
  const others = seatRows(m, key).filter((r) => weekOf(r.start) === weekOf(start) && r.id !== id);
  if (others.some((r) => !entry.ids.includes(r.id))) entry.people = "";
  entry.ids.push(id);
  m.evenPlaced[week] = entry;
}

/** A row moved (maybe to someone named): it no longer stands for balanced assignment, nor does its week. */
export function movedUnevenly(m: Model, id: string): void {
  for (const entry of Object.values(m.evenPlaced ?? {})) entry.ids = entry.ids.filter((i) => i !== id);
}

/** A hold became a booking: the booking stands for it among the rows placed evenly. */
export function convertedEvenly(m: Model, holdId: string, bookingId: string): void {
  for (const entry of Object.values(m.evenPlaced ?? {})) {
    entry.ids = entry.ids.map((id) => (id === holdId ? bookingId : id));
  }
}

/** What is wrong with the limits and the balance now (see the module comment). */
export function limitViolations(m: Model): string[] {
  const wrong: string[] = [];
  for (const key of ["S0", "S1"] as const) {
    const service = m.services[key];
    const allowed = m.allowance?.[key] ?? {};
    for (const [k, n] of Object.entries(serviceCounts(m, key))) {
      const limit = k.startsWith("d")
        ? service.limits?.perDay
        : k.startsWith("w")
          ? service.limits?.perWeek
          : service.perCustomer;
      if (limit !== undefined && n > Math.max(limit, allowed[k] ?? 0)) wrong.push(`${key} ${k} holds ${n} > ${limit}`);
    }
  }
  for (const person of ["P0", "P1"] as const) {
    const limit = m.providers[person].perDay;
    const allowed = m.allowance?.[person] ?? {};
    for (const [k, n] of Object.entries(providerCounts(m, person))) {
      if (limit !== undefined && n > Math.max(limit, allowed[k] ?? 0))
        wrong.push(`${person} ${k} holds ${n} > ${limit}`);
    }
  }
  return [...wrong, ...balanceViolations(m)];
}

/** Weeks of a balanced service placed wholly with everyone free whose counts differ by more than one. */
function balanceViolations(m: Model): string[] {
  const wrong: string[] = [];
  for (const [week, { ids, people }] of Object.entries(m.evenPlaced ?? {})) {
    const [key, w] = week.split("|") as [ServiceKey, string];
    const service = m.services[key];
    const now = service.providers.filter((p) => m.providers[p].active);
    if (service.assignment !== "balanced" || service.mode !== "one" || people !== now.join(",")) continue;
    const rows = seatRows(m, key).filter((r) => `w${weekOf(r.start)}` === w);
    const live = new Set(rows.map((r) => r.id));
    // Every row of the week placed evenly, and none of those gone (cancelled, moved, expired).
    if (rows.some((r) => !ids.includes(r.id)) || ids.some((id) => !live.has(id))) continue;
    const counts = now.map((p) => rows.filter((r) => r.provider === p).length);
    if (Math.max(...counts) - Math.min(...counts) > 1) wrong.push(`${week} is unbalanced: ${counts.join("/")}`);
  }
  return wrong;
}
