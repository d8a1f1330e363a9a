/**
 * A person's setup page: their weekly hours (up to three intervals a weekday, more when they have
 * more), their days off and special hours (add one, remove one), what a change of hours does to
 * bookings already made, and their connected calendars and feed (calendars/page.tsx). Forms post without
 * JavaScript; a refused one comes back with what was typed and the problem next to its field.
 */

import type { FormFields } from "../../pages/form";
import { formatsOf } from "../../pages/i18n/format";
import type { ProviderCalendarView } from "../../providers/connected-calendars";
import type { toProvider } from "../../providers/records";
import type { DateOverride } from "../../types/schedule";
import type { DeskContext } from "../frame/desk";
import type { DeskStatus } from "../frame/layout";
import { CalendarSection, FeedSection, FeedShown } from "./calendars/page";
import { WeekFields, weekFields } from "./catalog-parts";
import { RemoveButton, TextField } from "./field";
import { setupPage, toSetup } from "./frame";
import { setupWords } from "./guard";
import { intervalsText } from "./hours";

/** The person, their calendars and when their feed's address was made (null: none). */
export type ProviderSetupView = {
  provider: ReturnType<typeof toProvider>;
  calendars: ProviderCalendarView[];
  feedSince: string | null;
};

/** What the page says besides the person: a flash, or a setupRefusal with the form's fields as sent and their problems. */
export type ProviderSetupState = {
  flash?: string;
  refused?: string;
  week?: FormFields;
  add?: FormFields;
  /** The connect form as sent, its password left out (never put back in a page). */
  connect?: FormFields;
  /** A feed address just made: shown on this answer only. */
  feedUrl?: string;
  problems?: Record<string, string>;
};

/** The person's setup page. */
export function providerSetupPage(
  c: DeskContext,
  view: ProviderSetupView,
  state: ProviderSetupState = {},
  status: DeskStatus = 200,
) {
  const { desk } = c.var;
  const w = setupWords(c);
  const p = w.person;
  const { provider } = view;
  const base = `/office/setup/people/${provider.id}`;
  const problems = state.problems ?? {};
  const sent = state.week;
  const overrides = [...provider.dateOverrides].sort((a, b) => a.date.localeCompare(b.date));
  return setupPage(
    c,
    status,
    {
      title: provider.name,
      back: desk.member.role === "owner" ? toSetup(c) : undefined,
      flash: state.flash,
      refused: state.refused,
    },
    <>
      {state.feedUrl && <FeedShown c={c} url={state.feedUrl} />}
      <section aria-labelledby="hours">
        <h2 id="hours">{p.hours}</h2>
        <p class="muted small">
          {p.hoursHint} {p.zone(provider.timezone)}
        </p>
        <form method="post" action={`${base}/hours`}>
          <WeekFields
            locale={desk.locale}
            fields={sent ?? weekFields(provider.weeklySchedule)}
            problems={problems}
            interval={p.interval}
          />
          <button class="btn" type="submit">
            {p.save}
          </button>
        </form>
      </section>
      <DaysOff c={c} base={base} overrides={overrides} state={state} />
      <p class="notice">{p.conflictNote}</p>
      <CalendarSection c={c} base={base} calendars={view.calendars} sent={state.connect} problems={problems} />
      <FeedSection c={c} base={base} since={view.feedSince} />
    </>,
  );
}

function DaysOff(props: { c: DeskContext; base: string; overrides: DateOverride[]; state: ProviderSetupState }) {
  const p = setupWords(props.c).person;
  const problems = props.state.problems ?? {};
  const sent = props.state.add;
  // A day off is a calendar date, not an instant: read at UTC midnight, it is that date in any zone.
  const dayOf = (date: string) => formatsOf(props.c.var.desk.locale, "UTC").date(`${date}T00:00:00Z`);
  return (
    <section aria-labelledby="daysoff">
      <h2 id="daysoff">{p.daysOff}</h2>
      {props.overrides.length === 0 ? (
        <p class="muted">{p.noDaysOff}</p>
      ) : (
        <div class="scroll">
          <table class="log">
            <thead>
              <tr>
                <th scope="col">{p.date}</th>
                <th scope="col">{p.hoursColumn}</th>
                <th scope="col">
                  <span class="sr-only">{p.remove}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {props.overrides.map((o) => (
                <tr>
                  <td>
                    <time datetime={o.date}>{dayOf(o.date)}</time>
                  </td>
                  <td>{o.intervals.length === 0 ? p.closed : intervalsText(o.intervals)}</td>
                  <td>
                    <RemoveButton
                      action={`${props.base}/days-off/remove`}
                      name="date"
                      value={o.date}
                      word={p.remove}
                      label={p.removeDay(dayOf(o.date))}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3 id="adddate" class="addtitle">
        {p.add}
      </h3>
      <form method="post" action={`${props.base}/days-off`} class="setupform" aria-labelledby="adddate">
        <TextField name="date" type="date" label={p.date} value={sent?.date} problem={problems.date} />
        <TextField name="hours" label={p.dayHours} value={sent?.hours} problem={problems.hours} />
        <button class="btn" type="submit">
          {p.addButton}
        </button>
      </form>
    </section>
  );
}
