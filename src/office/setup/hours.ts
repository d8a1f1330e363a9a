/**
 * The hours editor's text fields read into the API's shapes and back: an interval is written
 * "09:00–17:00" (an en dash; a hyphen is read too), a day's fields hold up to three of them, and a
 * date's hours are a comma-separated list. What is not an interval is named at its field; the API's
 * own schemas then check the rest (overlaps, end after start) as a PATCH would.
 */

import type { FormFields } from "../../pages/form";
import type { TimeInterval, Weekday, WeeklySchedule } from "../../types/schedule";

/** The editor's weekdays, Monday first. */
export const weekOrder: readonly Weekday[] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

/** Fields per weekday in the editor (more when a day has more intervals already). */
export const SLOTS = 3;

/** Fields per weekday read from a form: the API's bound on a day's intervals. */
const MAX_SLOTS = 12;

/** A field's name in the weekly editor: `mon.0` … `sun.2`. */
export const slotName = (day: Weekday, slot: number) => `${day}.${slot}`;

/** An interval as the editor writes it. */
export const intervalText = (iv: TimeInterval) => `${iv.start}–${iv.end}`;

/** A date's intervals as the editor writes them ("" for closed). */
export const intervalsText = (intervals: readonly TimeInterval[]) => intervals.map(intervalText).join(", ");

const intervalPattern = /^(\d{1,2}:\d\d)\s*[–—-]\s*(\d{1,2}:\d\d)$/;

/** "9:00" as "09:00", so the API's HH:MM rule judges the time and not its padding. */
const padded = (time: string) => time.padStart(5, "0");

/** One interval's text read, or undefined when it is not two times with a dash between. */
export function readInterval(text: string): TimeInterval | undefined {
  const match = intervalPattern.exec(text.trim());
  if (!match) return undefined;
  return { start: padded(match[1] as string), end: padded(match[2] as string) };
}

/** What a form read: the value, or the problems by field name (nothing is sent to the API then). */
export type Read<T> = { value?: T; problems: Record<string, string> };

/** Which field each of a day's intervals came from (empty fields are skipped), to put the API's problems back. */
export type Slots = Partial<Record<Weekday, number[]>>;

/** The weekly editor's fields as a schedule (every weekday; empty fields close it), in the fields' order. */
export function readWeek(fields: FormFields, badInterval: string): Read<WeeklySchedule> & { slots: Slots } {
  const problems: Record<string, string> = {};
  const week: WeeklySchedule = {};
  const slots: Slots = {};
  for (const day of weekOrder) {
    const intervals: TimeInterval[] = [];
    const used: number[] = [];
    for (let slot = 0; slot < MAX_SLOTS; slot++) {
      const text = (fields[slotName(day, slot)] ?? "").trim();
      if (text === "") continue;
      const interval = readInterval(text);
      if (interval) {
        intervals.push(interval);
        used.push(slot);
      } else problems[slotName(day, slot)] = badInterval;
    }
    week[day] = intervals;
    slots[day] = used;
  }
  return Object.keys(problems).length > 0 ? { problems, slots } : { value: week, problems, slots };
}

/** A date's hours field ("" closed, else comma-separated intervals). */
export function readDayHours(text: string, badInterval: string): Read<TimeInterval[]> {
  const parts = text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  const intervals = parts.map(readInterval);
  if (intervals.some((iv) => iv === undefined)) return { problems: { hours: badInterval } };
  return { value: intervals as TimeInterval[], problems: {} };
}

/**
 * Where an API problem of the provider PATCH belongs in the editor: `weeklySchedule.mon.1.end`
 * is the field the day's second interval came from, a problem of the date override at `added` is
 * the add form's `date` or `hours`.
 */
export function fieldOfProblem(path: string, slots: Slots, added = -1): string | undefined {
  const parts = path.split(".");
  if (parts[0] === "weeklySchedule" && parts[1]) {
    const day = parts[1] as Weekday;
    return slotName(day, slots[day]?.[Number(parts[2] ?? 0)] ?? 0);
  }
  if (parts[0] === "dateOverrides" && Number(parts[1]) === added) return parts[2] === "date" ? "date" : "hours";
  return undefined;
}
