/**
 * Recurring bookings (a series): the RFC 5545 RRULE subset the API takes, and the instants it
 * expands to. Every occurrence keeps the first one's wall-clock time in the service's time zone,
 * across DST changes (a wall time inside a spring-forward gap moves forward by the gap, as
 * zoned.ts resolves it). Pure functions: no I/O.
 */
import { TZDate } from "@date-fns/tz";
import { addLocalDays, instantOf, type LocalDate, localDateOf } from "./zoned";

const DAY = 86_400_000;

/** The most occurrences one series may have, and how far ahead its last one may start. */
export const MAX_OCCURRENCES = 52;
export const MAX_SERIES_DAYS = 366;

/** A parsed rule: how often, every how many, and when it stops (a count, or an instant). */
export type Recurrence = {
  freq: "DAILY" | "WEEKLY" | "MONTHLY";
  interval: number;
  count?: number;
  until?: number;
};

/** The rule, or what is wrong with it (a sentence for a 422 at `recurrence`). */
export type ParsedRecurrence = { ok: true; rule: Recurrence } | { ok: false; message: string };

const UNTIL = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/;

/** Parses `FREQ=WEEKLY;COUNT=8` (an `RRULE:` prefix is accepted) against the subset the API takes. */
export function parseRecurrence(text: string): ParsedRecurrence {
  const body = text.trim().replace(/^RRULE:/i, "");
  const parts = new Map<string, string>();
  for (const part of body.split(";")) {
    const [key, value, ...rest] = part.split("=");
    if (!key || value === undefined || rest.length > 0) return fail(`"${part}" is not KEY=VALUE.`);
    const name = key.toUpperCase();
    if (!["FREQ", "INTERVAL", "COUNT", "UNTIL"].includes(name)) {
      return fail(`${name} is not supported: use FREQ, INTERVAL and COUNT or UNTIL.`);
    }
    if (parts.has(name)) return fail(`${name} is given twice.`);
    parts.set(name, value.toUpperCase());
  }
  const freq = parts.get("FREQ");
  if (freq !== "DAILY" && freq !== "WEEKLY" && freq !== "MONTHLY")
    return fail("FREQ must be DAILY, WEEKLY or MONTHLY.");
  const interval = parts.has("INTERVAL") ? wholeNumber(parts.get("INTERVAL")) : 1;
  if (interval === null || interval < 1 || interval > 12) return fail("INTERVAL must be a whole number from 1 to 12.");
  if (parts.has("COUNT") === parts.has("UNTIL")) return fail("Give exactly one of COUNT and UNTIL.");
  if (parts.has("COUNT")) {
    const count = wholeNumber(parts.get("COUNT"));
    if (count === null || count < 2 || count > MAX_OCCURRENCES) {
      return fail(`COUNT must be a whole number from 2 to ${MAX_OCCURRENCES}.`);
    }
    return { ok: true, rule: { freq, interval, count } };
  }
  const until = untilOf(parts.get("UNTIL") ?? "");
  if (until === null) return fail("UNTIL must be a UTC date-time such as 20270301T000000Z (or a date, 20270301).");
  return { ok: true, rule: { freq, interval, until } };
}

const fail = (message: string): ParsedRecurrence => ({ ok: false, message });

const wholeNumber = (value: string | undefined) => (value && /^\d{1,3}$/.test(value) ? Number(value) : null);

/** UNTIL as an instant: a UTC date-time, or a date (the whole day, UTC, counts). */
function untilOf(value: string): number | null {
  const m = UNTIL.exec(value);
  if (!m) return null;
  const [, y, mo, d, h = "23", mi = "59", s = "59"] = m;
  const instant = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const back = new Date(instant);
  // An impossible date (February 30) is not silently moved.
  return back.getUTCDate() === Number(d) && back.getUTCMonth() === Number(mo) - 1 ? instant : null;
}

/** The local date `n` steps of the rule after `first`, or null where the rule skips (a 31st in a short month). */
function stepOf(rule: Recurrence, first: LocalDate, n: number): LocalDate | null {
  if (rule.freq === "DAILY") return addLocalDays(first, n * rule.interval);
  if (rule.freq === "WEEKLY") return addLocalDays(first, 7 * n * rule.interval);
  const months = first.month - 1 + n * rule.interval;
  const date = { year: first.year + Math.floor(months / 12), month: (months % 12) + 1, day: first.day };
  const real = addLocalDays(date, 0);
  return real.day === first.day ? date : null;
}

/**
 * Every occurrence's start, in order: the first at `firstStart`, each next at the same local
 * time on the rule's next date. Answers the starts, or why the rule is out of bounds (more than
 * `MAX_OCCURRENCES`, or a start more than `MAX_SERIES_DAYS` after `now`).
 */
export function occurrenceStarts(
  rule: Recurrence,
  firstStart: number,
  timezone: string,
  now: number,
): { ok: true; starts: number[] } | { ok: false; message: string } {
  const first = localDateOf(firstStart, timezone);
  const local = new TZDate(firstStart, timezone);
  const minutes = local.getHours() * 60 + local.getMinutes();
  const horizon = now + MAX_SERIES_DAYS * DAY;
  if (rule.until !== undefined && rule.until > horizon) {
    return { ok: false, message: `UNTIL may be at most ${MAX_SERIES_DAYS} days ahead.` };
  }
  const starts: number[] = [];
  for (let n = 0; n < 2_000; n++) {
    if (rule.count !== undefined && starts.length === rule.count) break;
    const date = stepOf(rule, first, n);
    if (!date) continue;
    const start = n === 0 ? firstStart : instantOf(date, minutes, timezone);
    if (rule.until !== undefined && start > rule.until) break;
    if (start > horizon) return { ok: false, message: `Every occurrence must start within ${MAX_SERIES_DAYS} days.` };
    if (starts.length === MAX_OCCURRENCES) {
      return { ok: false, message: `A series has at most ${MAX_OCCURRENCES} occurrences.` };
    }
    starts.push(start);
  }
  if (starts.length < 2) return { ok: false, message: "The rule gives fewer than 2 occurrences." };
  return { ok: true, starts };
}
