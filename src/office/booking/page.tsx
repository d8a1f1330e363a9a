/**
 * A booking's page: its facts in the business's zone, its answers and conflicts, what it can
 * still become (each a form posting to the action that runs the API's own domain function), the
 * messages sent about it and its history. A flash says what the last action did; a refusal says
 * why, on the same page.
 */
import { dayKeyOf, formatsOf } from "../../pages/i18n/format";
import type { DeskContext } from "../frame/desk";
import { type DeskStatus, deskPage } from "../frame/layout";
import { Notices } from "../frame/notices";
import { Actions } from "./actions-form";
import type { BookingView } from "./load";
import { MoveForm } from "./move";
import { History, MessagesSent } from "./records";

/** What the page says above the facts: the last action's flash, or a refusal's reason. */
export type DeskNotice = { flash?: string; refused?: string; moveDay?: string };

/** The booking's page, with the last action's flash or a refusal (then with that status). */
export function bookingDeskPage(c: DeskContext, view: BookingView, notice: DeskNotice = {}, status: DeskStatus = 200) {
  const { m, locale, timezone } = c.var.desk;
  const f = formatsOf(locale, timezone);
  const { booking, service } = view;
  const b = m.booking;
  const answers = Object.entries(booking.answers);
  const labelOf = (key: string) => service?.questions.find((q) => q.key === key)?.label ?? key;
  const day = dayKeyOf(booking.startTime, timezone);
  const title = `${service?.name ?? booking.serviceId} · ${booking.customerName}`;
  return deskPage(c, status, {
    title,
    section: "day",
    body: (
      <div class="stack">
        <p class="small">
          <a href={`/office/day/${day}`}>← {b.backToDay}</a>
        </p>
        <h1>{title}</h1>
        <Notices notice={notice} refusedLabel={b.refused} />
        <div class="grid2">
          <section aria-labelledby="facts">
            <h2 id="facts">{b.title}</h2>
            <dl class="facts2">
              <dt>{b.status}</dt>
              <dd>
                <strong>{m.status[booking.status] ?? booking.status}</strong>
                {booking.cancellationReason && ` · ${b.reason}: ${booking.cancellationReason}`}
              </dd>
              <dt>{b.time}</dt>
              <dd>
                {f.dateTime(booking.startTime)}–{f.time(booking.endTime)} <span class="muted">· {f.zone()}</span>
              </dd>
              <dt>{b.service}</dt>
              <dd>{service?.name ?? booking.serviceId}</dd>
              {view.people.length > 0 && (
                <>
                  <dt>{b.person}</dt>
                  <dd>{view.people.join(", ")}</dd>
                </>
              )}
              {view.rooms.length > 0 && (
                <>
                  <dt>{b.room}</dt>
                  <dd>{view.rooms.join(", ")}</dd>
                </>
              )}
              <dt>{b.customer}</dt>
              <dd>
                {booking.customerId ? (
                  <a href={`/office/customers/${booking.customerId}`}>{booking.customerName}</a>
                ) : (
                  booking.customerName
                )}
              </dd>
              <dt>{b.email}</dt>
              <dd>
                {booking.customerEmail ? (
                  <a href={`mailto:${booking.customerEmail}`}>{booking.customerEmail}</a>
                ) : (
                  b.none
                )}
              </dd>
              <dt>{b.phone}</dt>
              <dd>{booking.customerPhone ?? b.none}</dd>
              <dt>{b.notes}</dt>
              <dd>{booking.notes ?? b.none}</dd>
              {answers.map(([key, value]) => (
                <>
                  <dt>{labelOf(key)}</dt>
                  <dd>{String(value)}</dd>
                </>
              ))}
            </dl>
            {booking.conflicts.length > 0 && (
              <>
                <h3 class="flag">
                  ⚠ {b.conflicts} ({booking.conflicts.length})
                </h3>
                <ul>
                  {booking.conflicts.map((conflict) => (
                    <li>
                      {m.conflictKinds[conflict.kind] ?? conflict.kind} — {conflict.detail}{" "}
                      <span class="muted small">({f.dateTime(conflict.detectedAt)})</span>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </section>
          <Actions m={m} booking={booking} />
        </div>
        {view.visit && (
          <section aria-labelledby="visit">
            <h2 id="visit">{b.visit}</h2>
            <ol class="people">
              {view.visit.map((segment) => {
                const text = `${f.dateTime(segment.startTime)}–${f.time(segment.endTime)} · ${segment.service} · ${m.status[segment.status] ?? segment.status}`;
                return (
                  <li>
                    {segment.id === booking.id ? (
                      <span aria-current="page">
                        {text} <span class="muted">({b.thisOne})</span>
                      </span>
                    ) : (
                      <a href={`/office/bookings/${segment.id}`}>{text}</a>
                    )}
                  </li>
                );
              })}
            </ol>
          </section>
        )}
        {view.canMove && (
          <MoveForm
            m={m}
            f={f}
            booking={booking}
            day={notice.moveDay ?? dayKeyOf(booking.startTime, timezone)}
            times={view.times}
          />
        )}
        {view.messages && <MessagesSent m={m} f={f} messages={view.messages} />}
        {view.history && <History m={m} f={f} history={view.history} actors={view.actors} />}
      </div>
    ),
  });
}
