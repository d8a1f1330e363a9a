/** Step 6: the booking made, with its time in both zones, an `.ics` and the manage link. */
import type { managedView } from "../../bookings/by-link";
import { Layout } from "../layout";
import { icons, Progress } from "../parts";
import type { View } from "../view";

export type BookedProps = {
  view: View;
  booking: ReturnType<typeof managedView>;
  icsHref: string;
};

export function BookedPage({ view, booking, icsHref }: BookedProps) {
  const { m, f } = view;
  const pending = booking.status === "PENDING";
  const heading = pending ? m.booked.pending : m.booked.confirmed;
  const serviceZone = booking.service.timezone;
  const start = Date.parse(booking.startTime);
  return (
    <Layout view={view} title={heading} capability>
      <div class="done" data-booking-id={booking.id}>
        <Progress view={view} current="done" />
        <div class="check">{icons.check}</div>
        <h1>{heading}</h1>
        <p class="muted">{pending ? m.booked.pendingHint : m.booked.sent(booking.customerEmail)}</p>
        <dl class="sum">
          <dt>{m.booked.what}</dt>
          <dd>{booking.service.name}</dd>
          <dt>{m.booked.when}</dt>
          <dd>
            {f.dateTime(start)}
            <br />
            <span class="muted small">{f.zone(start)}</span>
          </dd>
          {serviceZone !== view.tz && (
            <>
              <dt>{m.booked.there}</dt>
              <dd>
                {f.dateTimeIn(start, serviceZone)}
                <br />
                <span class="muted small">{f.zoneOf(serviceZone, start)}</span>
              </dd>
            </>
          )}
          {booking.providerNames.length > 0 && (
            <>
              <dt>{m.booked.who}</dt>
              <dd>{booking.providerNames.join(", ")}</dd>
            </>
          )}
          <dt>{m.booked.name}</dt>
          <dd>{booking.customerName}</dd>
        </dl>
        <div class="actions">
          <a class="btn ghost" href={icsHref} download="booking.ics">
            {icons.calendar}
            {m.booked.ics}
          </a>
          {booking.manageUrl && (
            <a class="btn" href={booking.manageUrl} {...(view.embed ? { target: "_blank", rel: "noopener" } : {})}>
              {m.booked.manage}
            </a>
          )}
        </div>
        <p class="muted small">{m.booked.keep}</p>
      </div>
    </Layout>
  );
}
