/** The day whose clocks change, as the office's axis needs it (place.ts). */
import { TZDate } from "@date-fns/tz";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * A day whose clocks change: from the instant `at`, the wall clock reads `by` minutes less than
 * the time elapsed since midnight (60 on a day of 25 hours, −60 on one of 23).
 */
export type ClockChange = { at: number; by: number };

/**
 * The clock change of the local day `day` that runs from `from` to `to` in `timezone`, if any:
 * the first whole hour of the wall clock after it. The axis is the wall clock's, so a block past the
 * change sits at its own time, beside the same time of a day without one.
 */
export function clockOf(day: string, timezone: string, from: number, to: number): ClockChange | undefined {
  const by = (to - from) / MINUTE - 24 * 60;
  if (by === 0) return undefined;
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  for (let hour = 1; hour <= 24; hour++) {
    const at = new TZDate(year, month - 1, date, hour, 0, timezone).getTime();
    if (at - from !== hour * HOUR) return { at, by };
  }
  return undefined;
}
