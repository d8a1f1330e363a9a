/**
 * The columns of a day or week beside one axis of hours: each column a track of whole hours with
 * the working hours shaded and a block per booking (time, service, customer; a conflict named in
 * words, not only by colour). Places are classes the office stylesheet defines once (./place.ts),
 * so the page carries no rule or attribute per block, and this same fragment is what the live
 * update fetches again and puts in as it is.
 */
import type { JSX } from "hono/jsx/jsx-runtime";
import type { ConflictedBooking } from "../../bookings/conflicts";
import type { Formats } from "../../pages/i18n/format";
import type { DeskWords } from "../frame/en";
import type { Board, Column } from "./load";
import { classesOf, placeBookings, placeSpan, rangeOf, type TrackRange } from "./place";

type Parts = { m: DeskWords; f: Formats; board: Board };

/** A time as the page writes it, each instant formatted once a page (a day repeats its times in every column). */
function timesOf(f: Formats) {
  const made = new Map<string | number, string>();
  return (instant: string | number) => {
    let text = made.get(instant);
    if (text === undefined) {
      text = f.time(instant);
      made.set(instant, text);
    }
    return text;
  };
}

type Drawing = Parts & { time: (instant: string | number) => string };

/** One booking's block: a link saying its time (the end said, not shown: it is the block's height), service and customer. */
function block(booking: ConflictedBooking, classes: string, d: Drawing) {
  const { m, board, time } = d;
  const clash = booking.conflicts.length > 0;
  const status = booking.status === "CONFIRMED" ? "" : ` · ${m.status[booking.status] ?? booking.status}`;
  const off = booking.status !== "CONFIRMED" && booking.status !== "PENDING";
  const cls = [classes, clash ? "clash" : "", off ? "off" : ""].filter(Boolean).join(" ");
  return (
    <li class={cls || undefined}>
      <a href={`/office/bookings/${booking.id}`}>
        {clash && <span class="flag">⚠ {m.conflict} · </span>}
        <b>{time(booking.startTime)}</b>
        <span class="sr-only">–{time(booking.endTime)}</span>
        {status} {board.serviceNames.get(booking.serviceId) ?? booking.serviceId} · {booking.customerName}
      </a>
    </li>
  );
}

/** A column's track: its working hours shaded, its bookings in the order they start. */
function track(column: Column, range: TrackRange, d: Drawing) {
  return (
    <div class="track">
      {column.bands.map((band) => (
        <div class={`band ${classesOf(placeSpan(column, range, band.start, band.end))}`} />
      ))}
      <ul aria-label={column.name}>
        {placeBookings(column, range).map(({ booking, at }) => block(booking, classesOf(at), d))}
      </ul>
      {column.bookings.length === 0 && <p class="sr-only">{d.m.day.none}</p>}
    </div>
  );
}

/** The hours down the side, once for every column (read by no screen reader: each block says its time). */
function axis(columns: Column[], range: TrackRange, d: Drawing) {
  const from = columns[0]?.from ?? 0;
  const hours = Array.from({ length: (range.last - range.first) / 60 }, (_, i) => range.first + i * 60);
  return (
    <div class="axis" aria-hidden="true">
      <div>
        {hours.map((minute) => (
          <span>{d.time(from + minute * 60_000)}</span>
        ))}
      </div>
    </div>
  );
}

/** How a column's working hours read in words (for those who do not see the shading). */
function hoursText(column: Column, d: Drawing) {
  if (column.kind !== "provider" && column.kind !== "day" && column.bands.length === 0) return undefined;
  if (column.bands.length === 0) return d.m.day.closed;
  const spans = column.bands.map((b) => `${d.time(b.start)}–${d.time(b.end)}`).join(", ");
  return `${d.m.day.hours}: ${spans}`;
}

/**
 * The board: the axis of hours and the columns, in a box that scrolls sideways when they do not
 * fit (the axis stays in view). The page and the live fragment are the same markup.
 */
export function renderColumns(parts: Parts, heading: (column: Column) => JSX.Element) {
  const d: Drawing = { ...parts, time: timesOf(parts.f) };
  const { columns } = parts.board;
  if (columns.length === 0) return <p class="empty">{parts.m.day.noColumns}</p>;
  const range = rangeOf(columns);
  return (
    <div class="board">
      <div class={columns[0]?.kind === "day" ? "columns week" : "columns"}>
        {axis(columns, range, d)}
        {columns.map((column, index) => (
          <section class="column" aria-labelledby={`c-${index}`}>
            <h2 id={`c-${index}`}>{heading(column)}</h2>
            {/* Always there (empty for a room without hours): every column's hours start at the same height. */}
            <p class="hoursnote">{hoursText(column, d) ?? "\u00a0"}</p>
            {track(column, range, d)}
          </section>
        ))}
      </div>
    </div>
  );
}
