/** The day page and a person's week page: the columns in the office frame, with their navigation and the live hooks. */
import type { Child } from "hono/jsx";
import type { JSX } from "hono/jsx/jsx-runtime";
import { addDays, formatsOf } from "../../pages/i18n/format";
import type { DeskContext } from "../frame/desk";
import { deskPage } from "../frame/layout";
import { MAX_SHOWN } from "./bookings";
import { renderColumns } from "./columns";
import { type FirstRun, FirstRunPanel } from "./first-run";
import { type Board, mondayOf } from "./load";

/** The columns, the same for both pages and the live fragment. */
export function columnsOf(c: DeskContext, board: Board) {
  const { m, timezone, locale } = c.var.desk;
  return renderColumns({ m, f: formatsOf(locale, timezone), board });
}

/** The live region: the columns, with where the script asks for a change and fetches them again. */
function Live({ base, etag, children }: { base: string; etag: string; children: JSX.Element }) {
  return (
    <div data-live={`${base}/version`} data-columns={`${base}/columns`} data-version={etag}>
      {children}
    </div>
  );
}

/**
 * A board page (a day, a week): its heading and steps, the line saying it updates itself (after
 * `zone` when given), the cap's notice, and the live columns.
 */
function boardPage(
  c: DeskContext,
  view: { title: string; steps: Child; zone?: string; live: string; board: Board; etag: string; first?: Child },
) {
  const { m } = c.var.desk;
  return deskPage(c, 200, {
    title: view.title,
    section: "day",
    body: (
      <>
        {view.first}
        <div class="dayhead">
          <h1>{view.title}</h1>
          <div class="steps">{view.steps}</div>
        </div>
        <p class="muted small">
          {view.zone && <>{view.zone} · </>}
          <span role="status" data-announce data-changed={m.day.changed}>
            {m.day.live}
          </span>
        </p>
        {view.board.capped && <p class="refused">{m.day.capped(MAX_SHOWN)}</p>}
        <Live base={view.live} etag={view.etag}>
          {columnsOf(c, view.board)}
        </Live>
      </>
    ),
  });
}

/** GET /office, /office/day/{date}: the business's day (on /office, a new business's checklist above it). */
export function dayPage(c: DeskContext, day: string, board: Board, etag: string, run?: FirstRun) {
  const { m, timezone, locale } = c.var.desk;
  // The date itself, not an instant of it: written in UTC, where noon is always that date.
  const title = formatsOf(locale, "UTC").date(`${day}T12:00:00Z`);
  const steps = (
    <>
      <a href={`/office/day/${addDays(day, -1)}`} rel="prev">
        ← {m.day.previous}
      </a>
      <a href="/office">{m.day.today}</a>
      <a href={`/office/day/${addDays(day, 1)}`} rel="next">
        {m.day.next} →
      </a>
      <form class="pick" method="get" action="/office/day">
        <label class="sr-only" for="date">
          {m.day.pick}
        </label>
        <input id="date" name="date" type="date" value={day} required />
        <button type="submit">{m.day.show}</button>
      </form>
    </>
  );
  const zone = m.day.zone(formatsOf(locale, timezone).zone());
  const first = run && <FirstRunPanel c={c} run={run} />;
  return boardPage(c, { title, steps, zone, live: `/office/day/${day}`, board, etag, first });
}

/** GET /office/week/{date}/{providerId}: one person's week, Monday to Sunday. */
export function weekPage(
  c: DeskContext,
  day: string,
  providerId: string,
  board: Board & { name: string },
  etag: string,
) {
  const { m, timezone, locale } = c.var.desk;
  const monday = mondayOf(day);
  const steps = (
    <>
      <a href={`/office/week/${addDays(monday, -7)}/${providerId}`} rel="prev">
        ← {m.day.previousWeek}
      </a>
      <a href={`/office/day/${monday}`}>{m.day.title}</a>
      <a href={`/office/week/${addDays(monday, 7)}/${providerId}`} rel="next">
        {m.day.nextWeek} →
      </a>
    </>
  );
  const live = `/office/week/${monday}/${providerId}`;
  const zone = m.day.zone(formatsOf(locale, timezone).zone());
  return boardPage(c, { title: m.day.weekOf(board.name), steps, zone, live, board, etag });
}
