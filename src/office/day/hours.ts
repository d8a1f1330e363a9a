/** Working hours as spans of instants within one stretch of time (a day of the business's zone). */
import { localDateOf, type Span, workingSpans } from "../../calendar/rules";
import type { WorkingHours } from "../../types/schedule";

/**
 * The owner's working spans that fall within [from, to), clipped to it: the local dates of the
 * owner's zone that the stretch touches (two at most for a day of another zone), each by the
 * calendar's own rule (its date override, else its weekday).
 */
export function hoursWithin(hours: WorkingHours, from: number, to: number): Span[] {
  const first = localDateOf(from, hours.timezone);
  const last = localDateOf(to - 1, hours.timezone);
  const dates = [first];
  if (last.day !== first.day || last.month !== first.month || last.year !== first.year) dates.push(last);
  return dates
    .flatMap((date) => workingSpans(hours, date))
    .map((span) => ({ start: Math.max(from, span.start), end: Math.min(to, span.end) }))
    .filter((span) => span.end > span.start);
}
