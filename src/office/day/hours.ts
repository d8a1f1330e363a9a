/** Working hours as spans of instants within one stretch of time (a day of the business's zone). */
import { localDateOf, type Span, workingSpans } from "../../calendar/rules";
import type { WorkingHours } from "../../types/schedule";

/**
 * Spans already worked out, by hours and stretch: a day page is drawn again every few seconds for
 * the same people, and each zone's dates cost a few Intl calls (cleared when it grows past 2,000).
 */
const known = new Map<string, Span[]>();

/**
 * The owner's working spans that fall within [from, to), clipped to it: the local dates of the
 * owner's zone that the stretch touches (two at most for a day of another zone), each by the
 * calendar's own rule (its date override, else its weekday).
 */
export function hoursWithin(hours: WorkingHours, from: number, to: number): Span[] {
  const id = JSON.stringify([hours.timezone, hours.weeklySchedule, hours.dateOverrides ?? [], from, to]);
  const found = known.get(id);
  if (found) return found;
  const first = localDateOf(from, hours.timezone);
  const last = localDateOf(to - 1, hours.timezone);
  const dates = [first];
  if (last.day !== first.day || last.month !== first.month || last.year !== first.year) dates.push(last);
  const spans = dates
    .flatMap((date) => workingSpans(hours, date))
    .map((span) => ({ start: Math.max(from, span.start), end: Math.min(to, span.end) }))
    .filter((span) => span.end > span.start);
  if (known.size >= 2_000) known.clear();
  known.set(id, spans);
  return spans;
}
