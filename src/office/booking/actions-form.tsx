/** The forms of what a booking can still become: cancel (with a reason), completed or no-show once started, its notes. */
import type { ConflictedBooking } from "../../bookings/conflicts";
import type { DeskWords } from "../frame/en";

/** The actions section: only what the booking can still become is offered (the server checks again). */
export function Actions({ m, booking }: { m: DeskWords; booking: ConflictedBooking }) {
  const b = m.booking;
  const base = `/office/bookings/${booking.id}`;
  const open = booking.status === "PENDING" || booking.status === "CONFIRMED";
  const started = Date.parse(booking.startTime) <= Date.now();
  return (
    <section class="deskactions" aria-labelledby="actions">
      <h2 id="actions">{b.actions}</h2>
      {open && (
        <form method="post" action={`${base}/cancel`}>
          <label for="reason">{b.cancelReason}</label>
          <input id="reason" name="reason" type="text" maxlength={500} autocomplete="off" />
          <div class="row">
            <button class="btn danger" type="submit">
              {b.cancel}
            </button>
          </div>
        </form>
      )}
      {booking.status === "CONFIRMED" &&
        (started ? (
          <form method="post" action={`${base}/status`}>
            <div class="row">
              <button class="btn ghost" type="submit" name="status" value="COMPLETED">
                {b.completed}
              </button>
              <button class="btn ghost" type="submit" name="status" value="NO_SHOW">
                {b.noShow}
              </button>
            </div>
          </form>
        ) : (
          <p class="muted small">{b.afterStart}</p>
        ))}
      <form method="post" action={`${base}/notes`}>
        <label for="notes">{b.notes}</label>
        <textarea id="notes" name="notes" rows={4} maxlength={2000}>
          {booking.notes ?? ""}
        </textarea>
        <div class="row">
          <button class="btn ghost" type="submit">
            {b.saveNotes}
          </button>
        </div>
      </form>
    </section>
  );
}
