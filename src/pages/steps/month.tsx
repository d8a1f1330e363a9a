/** A month as a calendar table: days with free times are links, the others plain numbers. */
import { type DayKey, formatsOf, startOfDay } from "../i18n/format";
import { icons } from "../parts";
import type { View } from "../view";

/** The month `delta` months after `month` (`YYYY-MM`). */
export function addMonths(month: string, delta: number): string {
  const [year, index] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, index - 1 + delta, 1)).toISOString().slice(0, 7);
}

/** The dates of a month, `YYYY-MM-DD`. */
export function daysOf(month: string): DayKey[] {
  const [year, index] = month.split("-").map(Number) as [number, number];
  const count = new Date(Date.UTC(year, index, 0)).getUTCDate();
  return Array.from({ length: count }, (_, i) => `${month}-${String(i + 1).padStart(2, "0")}`);
}

/** Monday first: the weekday names of a week that began on Monday, 1 January 2024. */
const weekdaysOf = (view: View) =>
  Array.from({ length: 7 }, (_, i) => formatsOf(view.locale, "UTC").weekday(Date.UTC(2024, 0, 1 + i, 12)));

export function MonthCalendar(props: {
  view: View;
  month: string;
  open: Set<DayKey>;
  today: DayKey;
  dayHref: (day: DayKey) => string;
  /** Links to the months before and after; undefined where there is nothing to see. */
  previous?: string;
  next?: string;
}) {
  const { view, month, open } = props;
  const { m, f } = view;
  const days = daysOf(month);
  const [year, index] = month.split("-").map(Number) as [number, number];
  const lead = (new Date(Date.UTC(year, index - 1, 1)).getUTCDay() + 6) % 7;
  const cells: (DayKey | null)[] = [...Array.from({ length: lead }, () => null), ...days];
  while (cells.length % 7) cells.push(null);
  const weeks = Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7));
  const title = f.month(startOfDay(`${month}-15`, view.tz));
  const nav = (href: string | undefined, label: string, icon: unknown) =>
    href ? (
      <a class="icon" href={href} aria-label={label}>
        {icon}
      </a>
    ) : null;
  return (
    <div>
      <div class="monthbar">
        <h3 id="month-title">{title}</h3>
        <div class="navs">
          {nav(props.previous, m.days.previous, icons.left)}
          {nav(props.next, m.days.next, icons.right)}
        </div>
      </div>
      <table class="month" aria-labelledby="month-title">
        <thead>
          <tr>
            {weekdaysOf(view).map((name) => (
              <th scope="col">{name}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr>
              {week.map((day) => {
                if (!day) return <td />;
                const label = f.date(startOfDay(day, view.tz));
                const number = String(Number(day.slice(8)));
                const today = day === props.today ? " today" : "";
                return (
                  <td>
                    {open.has(day) ? (
                      <a class={`day${today}`} href={props.dayHref(day)} aria-label={m.days.free(label)}>
                        {number}
                      </a>
                    ) : (
                      <span class={`day${today}`}>{number}</span>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
