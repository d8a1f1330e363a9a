/** The manage link's page: the booking, a new time within the policy window, and cancelling. */

import type { PublicSlot } from "../../booking-page/availability";
import type { managedView } from "../../bookings/by-link";
import { type DayKey, startOfDay } from "../i18n/format";
import { Layout } from "../layout";
import { icons, Notice } from "../parts";
import { addMonths, MonthCalendar } from "../steps/month";
import type { View } from "../view";

export type ManagedBooking = ReturnType<typeof managedView>;

export type ManageProps = {
  view: View;
  booking: ManagedBooking;
  /** The manage link's path (`/api/v1/manage/{token}`) and the query that keeps zone and language. */
  path: string;
  href: (params: Record<string, string | undefined>) => string;
  contactEmail: string | null;
  /** The list of zones, to see the page in another. */
  zoneHref: string;
  /** Asked by GET: without a zone in the address, the script reloads it in the visitor's (a form's answer has no address to reload). */
  times: boolean;
  /** The month of dates to move to, and which have times; the day picked and its times. */
  month: string;
  open: Set<DayKey>;
  today: DayKey;
  day?: DayKey;
  slots?: PublicSlot[];
  notice?: { tone?: "bad" | "ok"; text: string };
  reason?: { value: string; problem?: string };
};

/** "Until …, contact …": what the page says once a change is no longer possible online. */
function Closed({ view, until, contactEmail }: { view: View; until: string | null; contactEmail: string | null }) {
  const { m, f } = view;
  return (
    <Notice>
      {until && <p>{m.manage.until(f.dateTime(until))}</p>}
      <p>
        {contactEmail ? (
          <>
            {m.manage.contact} <a href={`mailto:${contactEmail}`}>{contactEmail}</a>.
          </>
        ) : (
          m.manage.contactBusiness
        )}
      </p>
    </Notice>
  );
}

/** What the booking is: the aside of the manage page and of the cancelled page (`zoneHref`: the way to another zone). */
export function BookingFacts({ view, booking, zoneHref }: { view: View; booking: ManagedBooking; zoneHref?: string }) {
  const { m, f } = view;
  const start = Date.parse(booking.startTime);
  const zone = booking.service.timezone;
  return (
    <aside class="aside" aria-label={m.manage.heading}>
      <p class="eyebrow">{view.brand.title}</p>
      <h1>{booking.service.name}</h1>
      <p>
        <span class={booking.status === "CANCELLED" ? "badge off" : "badge"}>{m.manage.status[booking.status]}</span>
      </p>
      <ul class="facts">
        <li>
          {icons.calendar}
          <strong>
            <span class="sr-only">{m.summary.when}: </span>
            {f.dateTime(start)}
          </strong>
        </li>
        <li>
          {icons.globe}
          <span>{f.zone(start)}</span>
          {zoneHref && <a href={zoneHref}>{m.times.changeZone}</a>}
        </li>
        {zone !== view.tz && (
          <li>
            {icons.clock}
            <span>
              {m.booked.there}: {f.dateTimeIn(start, zone)} ({f.zoneOf(zone, start)})
            </span>
          </li>
        )}
        {booking.providerNames.length > 0 && (
          <li>
            {icons.person}
            <span>
              <span class="sr-only">{m.summary.with}: </span>
              {booking.providerNames.join(", ")}
            </span>
          </li>
        )}
        <li>
          {icons.clock}
          <span>{m.minutes(booking.service.durationMinutes)}</span>
        </li>
      </ul>
    </aside>
  );
}

export function ManagePage(props: ManageProps) {
  const { view, booking, path } = props;
  const { m, f } = view;
  const now = Date.now();
  const canMove = booking.reschedulableUntil !== null && now < Date.parse(booking.reschedulableUntil);
  const canCancel = booking.cancellableUntil !== null && now < Date.parse(booking.cancellableUntil);
  const free = (props.slots ?? []).filter((slot) => slot.bookable);
  const dayText = props.day ? f.date(startOfDay(props.day, view.tz)) : "";
  const zone = f.zone();
  return (
    <Layout view={view} title={m.manage.heading} times={props.times} capability>
      <div class="cols">
        <BookingFacts view={view} booking={booking} zoneHref={props.zoneHref} />
        <div class="panel">
          {props.notice && (
            <Notice tone={props.notice.tone} live>
              {props.notice.text}
            </Notice>
          )}
          <section aria-labelledby="move">
            <h2 id="move">{m.manage.moveHeading}</h2>
            {canMove ? (
              <>
                <p class="muted small">{m.manage.moveHint}</p>
                <MonthCalendar
                  view={view}
                  month={props.month}
                  open={props.open}
                  today={props.today}
                  dayHref={(day) => props.href({ day })}
                  previous={
                    props.month > props.today.slice(0, 7)
                      ? props.href({ month: addMonths(props.month, -1) })
                      : undefined
                  }
                  next={props.href({ month: addMonths(props.month, 1) })}
                />
                {props.day && (
                  <div>
                    <h3>{dayText}</h3>
                    <p class="muted small">{m.times.zone(zone)}</p>
                    {free.length === 0 ? (
                      <p class="muted">{m.times.none}</p>
                    ) : (
                      <form method="post" action={`${path}/reschedule`}>
                        <input type="hidden" name="tz" value={view.tz} />
                        <input type="hidden" name="lang" value={view.locale} />
                        <ul class="slots">
                          {free.map((slot) => (
                            <li>
                              <button class="slot" type="submit" name="start" value={slot.startTime}>
                                {f.time(slot.startTime)}
                                <span class="sr-only">{m.times.at(dayText, zone)}</span>
                              </button>
                            </li>
                          ))}
                        </ul>
                      </form>
                    )}
                  </div>
                )}
              </>
            ) : (
              <Closed view={view} until={booking.reschedulableUntil} contactEmail={props.contactEmail} />
            )}
          </section>
          <section class="section" aria-labelledby="cancel">
            <h2 id="cancel">{m.manage.cancelHeading}</h2>
            {canCancel ? (
              <form method="post" action={`${path}/cancel`}>
                <input type="hidden" name="tz" value={view.tz} />
                <input type="hidden" name="lang" value={view.locale} />
                <div class="field">
                  <label for="f-reason">
                    {m.manage.reason} <span class="opt">({m.details.optional})</span>
                  </label>
                  <textarea
                    id="f-reason"
                    name="reason"
                    maxlength={500}
                    {...(props.reason?.problem ? { "aria-invalid": "true", "aria-describedby": "f-reason-err" } : {})}
                  >
                    {props.reason?.value ?? ""}
                  </textarea>
                  {props.reason?.problem && (
                    <p class="err" id="f-reason-err">
                      {props.reason.problem}
                    </p>
                  )}
                </div>
                <button class="btn danger" type="submit">
                  {m.manage.cancel}
                </button>
              </form>
            ) : (
              <Closed view={view} until={booking.cancellableUntil} contactEmail={props.contactEmail} />
            )}
          </section>
        </div>
      </div>
    </Layout>
  );
}

/** After a cancel: the booking as it is now, and where to book again. */
export function CancelledPage({ view, booking, bookHref }: { view: View; booking: ManagedBooking; bookHref?: string }) {
  const { m } = view;
  return (
    <Layout view={view} title={m.manage.cancelled} capability>
      <div class="cols">
        <BookingFacts view={view} booking={booking} />
        <div class="panel">
          <h2>{m.manage.cancelled}</h2>
          <p>{m.manage.cancelledHint}</p>
          {bookHref && (
            <p>
              <a class="btn" href={bookHref}>
                {m.manage.book}
              </a>
            </p>
          )}
        </div>
      </div>
    </Layout>
  );
}
