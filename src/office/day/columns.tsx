/**
 * The columns of a day or week: each a track of whole hours with the working hours shaded and a
 * block per booking (time, service, customer; a conflict named in words, not only by colour).
 * This is the fragment the live update fetches again; its places come as CSS rules for the page's
 * nonce'd `<style>` and as data attributes for the script.
 */
import type { JSX } from "hono/jsx/jsx-runtime";
import type { ConflictedBooking } from "../../bookings/conflicts";
import type { Formats } from "../../pages/i18n/format";
import type { DeskWords } from "../frame/en";
import type { Board, Column } from "./load";
import {
  dataOf,
  type Placed,
  PX_PER_MINUTE,
  placeBookings,
  placeSpan,
  rangeOf,
  ruleOf,
  type TrackRange,
} from "./place";

type Parts = { m: DeskWords; f: Formats; board: Board };

/**
 * Where an element's place goes: into a CSS rule for a page (its nonce'd `<style>`; no JavaScript
 * needed), or into data attributes for the live fragment, which the script places. Never both: a
 * day of 300 bookings would carry every place twice.
 */
type Placing = (id: string, at: Placed) => Record<string, string>;

/** A CSS id from a column key and an item (ids are [A-Za-z0-9_-]). */
const idOf = (...parts: (string | number)[]) => parts.join("-").replaceAll(/[^A-Za-z0-9_-]/g, "_");

function Block({
  booking,
  placed,
  id,
  parts,
}: {
  booking: ConflictedBooking;
  placed: Record<string, string>;
  id: string;
  parts: Parts;
}) {
  const { m, f, board } = parts;
  const clash = booking.conflicts.length > 0;
  const status = booking.status === "CONFIRMED" ? "" : ` · ${m.status[booking.status] ?? booking.status}`;
  const cls = [
    "block",
    clash ? "clash" : "",
    booking.status === "CONFIRMED" || booking.status === "PENDING" ? "" : "off",
  ];
  return (
    <li id={id} class={cls.filter(Boolean).join(" ")} {...placed}>
      <a href={`/office/bookings/${booking.id}`}>
        {clash && <span class="flag">⚠ {m.conflict} · </span>}
        <span class="t">{f.time(booking.startTime)}</span>
        {/* The end is on the booking's page and in the block's height; said, not shown, here. */}
        <span class="sr-only">–{f.time(booking.endTime)}</span>
        {status} {board.serviceNames.get(booking.serviceId) ?? booking.serviceId} · {booking.customerName}
      </a>
    </li>
  );
}

/** A column's track (called, not rendered as a component: hono/jsx renders those lazily, after the rules are joined). */
function Track({
  column,
  index,
  range,
  parts,
  place,
}: {
  column: Column;
  index: number;
  range: TrackRange;
  parts: Parts;
  place: Placing;
}) {
  const { m, f } = parts;
  const height = (range.last - range.first) * PX_PER_MINUTE;
  const places = placeBookings(column, range);
  const hours = Array.from({ length: (range.last - range.first) / 60 }, (_, i) => range.first + i * 60);
  const trackId = idOf("k", index);
  return (
    <div class="track" id={trackId} {...place(trackId, { y: 0, h: height })}>
      {column.bands.map((band, i) => {
        const id = idOf("h", index, i);
        return <div class="band" id={id} {...place(id, placeSpan(column, range, band.start, band.end))} />;
      })}
      {hours.map((minute, i) => {
        const id = idOf("t", index, i);
        const at = { y: (minute - range.first) * PX_PER_MINUTE + 2, h: 12 };
        return (
          <span class="tick" id={id} aria-hidden="true" {...place(id, at)}>
            {f.time(column.from + minute * 60_000)}
          </span>
        );
      })}
      <ul class="lanes" aria-label={column.name}>
        {column.bookings.map((booking, i) => {
          // A short id (column, position): the booking's own id is in the link already.
          const id = idOf("b", index, i);
          return <Block booking={booking} placed={place(id, places.get(booking.id) as Placed)} id={id} parts={parts} />;
        })}
      </ul>
      {column.bookings.length === 0 && <p class="sr-only">{m.day.none}</p>}
    </div>
  );
}

/** How a column's working hours read in words (for those who do not see the shading). */
function hoursText(column: Column, parts: Parts) {
  if (column.kind !== "provider" && column.kind !== "day" && column.bands.length === 0) return undefined;
  if (column.bands.length === 0) return parts.m.day.closed;
  const spans = column.bands.map((b) => `${parts.f.time(b.start)}–${parts.f.time(b.end)}`).join(", ");
  return `${parts.m.day.hours}: ${spans}`;
}

/**
 * The columns and the CSS rules that place their contents; `live`, the fragment the script
 * fetches, places them by data attributes instead (and has no rules).
 */
export function renderColumns(parts: Parts, heading: (column: Column) => JSX.Element, live = false) {
  const rules: string[] = [];
  const place: Placing = live
    ? (_, at) => dataOf(at)
    : (id, at) => {
        rules.push(ruleOf(id, at));
        return {};
      };
  const range = rangeOf(parts.board.columns);
  const html =
    parts.board.columns.length === 0 ? (
      <p class="empty">{parts.m.day.noColumns}</p>
    ) : (
      <div class={parts.board.columns[0]?.kind === "day" ? "columns week" : "columns"}>
        {parts.board.columns.map((column, index) => (
          <section class="column" aria-labelledby={idOf("c", index)}>
            <h2 id={idOf("c", index)}>{heading(column)}</h2>
            {/* Always there (empty for a room without hours): every column's hours start at the same height. */}
            <p class="hoursnote">{hoursText(column, parts) ?? "\u00a0"}</p>
            {Track({ column, index, range, parts, place })}
          </section>
        ))}
      </div>
    );
  return { html, css: rules.join("") };
}
