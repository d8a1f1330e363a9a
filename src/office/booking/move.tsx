/**
 * Moving a booking to another free time: the same free times the API lists (`GET
 * /services/{id}/availability`, for the booking's own person) on a chosen day of the business's
 * zone, each a button that posts the move, run by the API's own `rescheduleBooking` (as `POST
 * /bookings/{id}/reschedule`). Offered to whom the API lets read the free times (owner, front
 * desk); the post is checked as the API checks the move.
 */
import type { ConflictedBooking } from "../../bookings/conflicts";
import { addDays, type Formats, startOfDay } from "../../pages/i18n/format";
import { serviceAvailability } from "../../services/availability";
import type { DeskContext } from "../frame/desk";
import type { DeskWords } from "../frame/en";

/** The free times shown for one day: at most this many (a day of 5-minute slots is 288). */
const MAX_TIMES = 96;

/** The free times of `day` for the booking's service and person; undefined when none were asked. */
export async function freeTimes(c: DeskContext, booking: ConflictedBooking, day: string | undefined) {
  if (day === undefined) return undefined;
  const { timezone } = c.var.desk;
  const found = await serviceAvailability(c.env, c.var.db, c.var.caller.businessId, booking.serviceId, {
    from: new Date(startOfDay(day, timezone)).toISOString(),
    to: new Date(startOfDay(addDays(day, 1), timezone)).toISOString(),
    ...(booking.providerId ? { providerId: booking.providerId } : {}),
  });
  return found.slots
    .filter((slot) => slot.bookable && slot.startTime !== booking.startTime)
    .slice(0, MAX_TIMES)
    .map((slot) => ({ startTime: slot.startTime, endTime: slot.endTime }));
}

type Times = Awaited<ReturnType<typeof freeTimes>>;

/** The move section: a day to look at (GET) and, once asked, its free times as buttons (POST). */
export function MoveForm(props: { m: DeskWords; f: Formats; booking: ConflictedBooking; day: string; times: Times }) {
  const { m, f, booking, day, times } = props;
  const b = m.booking;
  return (
    <section aria-labelledby="move">
      <h2 id="move">{b.move}</h2>
      <form class="pick" method="get" action={`/office/bookings/${booking.id}`}>
        <label for="move-day">{b.moveDay}</label>
        <input id="move-day" name="moveDay" type="date" value={day} required />
        <button type="submit">{b.showTimes}</button>
      </form>
      {times && times.length === 0 && <p class="muted">{b.noTimes}</p>}
      {times && times.length > 0 && (
        <form method="post" action={`/office/bookings/${booking.id}/move`}>
          <ul class="slots">
            {times.map((time) => (
              <li>
                <button class="slot" type="submit" name="time" value={`${time.startTime}/${time.endTime}`}>
                  {f.time(time.startTime)}
                </button>
              </li>
            ))}
          </ul>
        </form>
      )}
    </section>
  );
}

const instant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** A posted time (`start/end`, as the buttons carry it), or undefined when it is not one. */
export function postedTime(value: string | undefined) {
  const [startTime, endTime, ...rest] = (value ?? "").split("/");
  if (rest.length > 0 || !startTime || !endTime || !instant.test(startTime) || !instant.test(endTime)) return undefined;
  if (Number.isNaN(Date.parse(startTime)) || Number.isNaN(Date.parse(endTime))) return undefined;
  return { startTime, endTime };
}
