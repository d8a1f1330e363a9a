/**
 * A person's connected calendars and calendar feed on their setup page: each calendar with its
 * sync state, last read and last error, a "sync now" button and a link to disconnect it (a page
 * that asks first); the form connecting one (its password is never put back in a page); the feed's
 * state with the button making a new address (shown once, on the page answering it) and a link to
 * end it (a page that asks first). Everything posts without JavaScript.
 */
import type { FormFields } from "../../../pages/form";
import { formatsOf } from "../../../pages/i18n/format";
import type { ProviderCalendarView } from "../../../providers/connected-calendars";
import type { DeskContext } from "../../frame/desk";
import { CheckField, TextField } from "../field";
import { calendarWordsOf } from "./words";

/** The calendars' and feed's words in the member's language. */
export const calendarWords = (c: DeskContext) => calendarWordsOf(c.var.desk.locale);

/** The calendars, with their actions, and the form connecting another (`sent`: as sent, no password). */
export function CalendarSection(props: {
  c: DeskContext;
  base: string;
  calendars: ProviderCalendarView[];
  sent?: FormFields;
  problems: Record<string, string>;
}) {
  const { c, base, problems } = props;
  const w = calendarWords(c);
  const f = formatsOf(c.var.desk.locale, c.var.desk.timezone);
  const sent = props.sent ?? {};
  return (
    <section aria-labelledby="calendars">
      <h2 id="calendars">{w.calendars}</h2>
      <p class="muted small">{w.calendarsHint}</p>
      {props.calendars.length === 0 ? (
        <p class="muted">{w.none}</p>
      ) : (
        <ul class="members">
          {props.calendars.map((cal) => (
            <li>
              <p>
                <span class="small wrap">{cal.url}</span>
                <br />
                <strong>{w.sync[cal.syncStatus] ?? cal.syncStatus}</strong>
                {cal.lastSyncedAt && ` · ${w.lastSynced} ${f.dateTime(cal.lastSyncedAt)}`}
                {cal.writeBookings && ` · ${w.writes}`}
                {cal.lastError && (
                  <>
                    <br />
                    <span class="muted small">
                      {w.lastError}: {cal.lastError}
                    </span>
                  </>
                )}
              </p>
              <form method="post" action={`${base}/calendars/${cal.id}/sync`} class="inline">
                <button class="btn ghost" type="submit" aria-label={w.syncNowOf(cal.url)}>
                  {w.syncNow}
                </button>
                <a
                  class="btn ghost"
                  href={`${base}/calendars/${cal.id}/disconnect`}
                  aria-label={w.disconnectOf(cal.url)}
                >
                  {w.disconnect}
                </a>
              </form>
            </li>
          ))}
        </ul>
      )}
      <h3 id="connect" class="addtitle">
        {w.connect}
      </h3>
      <form method="post" action={`${base}/calendars`} class="setupform" aria-labelledby="connect">
        <TextField name="url" type="url" label={w.url} value={sent.url} problem={problems.url} />
        <TextField name="username" label={w.username} value={sent.username} problem={problems.username} />
        <TextField
          name="password"
          type="password"
          label={w.password}
          problem={problems.password}
          autocomplete="new-password"
          hint={<p class="muted small">{w.passwordHint}</p>}
        />
        <CheckField name="writeBookings" label={w.writeBookings} checked={sent.writeBookings !== undefined} />
        <button class="btn" type="submit">
          {w.connectButton}
        </button>
      </form>
    </section>
  );
}

/**
 * The feed: when its address was made (or none) and the button making a new one. `replacing`
 * carries what this page saw, so the same form sent twice makes no second address.
 */
export function FeedSection(props: { c: DeskContext; base: string; since: string | null }) {
  const w = calendarWords(props.c);
  const f = formatsOf(props.c.var.desk.locale, props.c.var.desk.timezone);
  return (
    <section aria-labelledby="feed">
      <h2 id="feed">{w.feed}</h2>
      <p class="muted small">{w.feedHint}</p>
      <p>{props.since ? w.feedSince(f.dateTime(props.since)) : w.feedNone}</p>
      {props.since && <p class="muted small">{w.replaceHint}</p>}
      <form method="post" action={`${props.base}/feed`} class="inline">
        <input type="hidden" name="replacing" value={props.since ?? ""} />
        <button class="btn" type="submit">
          {props.since ? w.replaceFeed : w.makeFeed}
        </button>
        {props.since && (
          <a class="btn ghost" href={`${props.base}/feed/end`}>
            {w.endFeed}
          </a>
        )}
      </form>
    </section>
  );
}

/** The feed's address on the page answering its making: the only time it is shown. */
export function FeedShown({ c, url }: { c: DeskContext; url: string }) {
  const w = calendarWords(c);
  return (
    <section aria-labelledby="feedshown" class="flash">
      <h2 id="feedshown">{w.feedShown}</h2>
      <p>{w.feedShownText}</p>
      <div class="field">
        <label for="feedurl">{w.feedAddress}</label>
        <input id="feedurl" type="text" readonly value={url} autocomplete="off" spellcheck={false} />
      </div>
    </section>
  );
}
