/**
 * The columns of a day or week beside one axis of hours: each column a track of whole hours with
 * the working hours shaded and a block per booking (time, service, customer; a conflict named in
 * words, not only by colour). Places are classes the office stylesheet defines once (./place.ts),
 * so the page carries no rule or attribute per block, and this same fragment is what the live
 * update fetches again and puts in as it is.
 *
 * Written as escaped text rather than JSX: a busy day is hundreds of blocks, and building and
 * serialising an element tree for each was most of the page's cost.
 */
import { raw } from "hono/html";
import { escapeToBuffer } from "hono/utils/html";
import { type Formats, formatsOf } from "../../pages/i18n/format";
import type { DeskWords } from "../frame/en";
import type { DayBooking } from "./bookings";
import type { Board, Column } from "./load";
import { classesOf, placeBookings, placeSpan, rangeOf, type TrackRange } from "./place";

type Parts = { m: DeskWords; f: Formats; board: Board };
type Drawing = Parts & { time: (instant: number) => string };

/** Text made safe for HTML content and quoted attributes, by Hono's own escaper (what its JSX uses). */
const esc = (text: string) => {
  const buffer: [string] = [""];
  escapeToBuffer(text, buffer);
  return buffer[0];
};

/** Times already written, by language and zone: a day's page is drawn again every few seconds with the same times. */
const written = new Map<string, Map<number, string>>();
const MAX_WRITTEN = 20_000;

/** A time as the page writes it (escaped), each instant formatted once per language and zone. */
function timesOf(f: Formats) {
  const id = `${f.locale}|${f.timeZone}`;
  let made = written.get(id);
  if (!made || made.size > MAX_WRITTEN) {
    if (written.size > 50) written.clear();
    made = new Map();
    written.set(id, made);
  }
  const known = made;
  return (instant: number) => {
    let text = known.get(instant);
    if (text === undefined) {
      text = esc(f.time(instant));
      known.set(instant, text);
    }
    return text;
  };
}

/** One booking's block: a link saying its time (the end said, not shown: it is the block's height), service and customer. */
function block(booking: DayBooking, classes: string, d: Drawing) {
  const { m, board, time } = d;
  const clash = booking.conflicts.length > 0;
  const status = booking.status === "CONFIRMED" ? "" : ` · ${m.status[booking.status] ?? booking.status}`;
  const off = booking.status !== "CONFIRMED" && booking.status !== "PENDING";
  const cls = [classes, clash ? "clash" : "", off ? "off" : ""].filter(Boolean).join(" ");
  const flag = clash ? `<span class="flag">⚠ ${esc(m.conflict)} · </span>` : "";
  const service = board.serviceNames.get(booking.serviceId) ?? booking.serviceId;
  return `<li${cls ? ` class="${cls}"` : ""}><a href="/office/bookings/${esc(booking.id)}">${flag}<b>${time(booking.start)}</b><span class="sr-only">–${time(booking.end)}</span>${esc(status)} ${esc(service)} · ${esc(booking.customerName)}</a></li>`;
}

/** A column's track: its working hours shaded, its bookings in the order they start. */
function track(column: Column, range: TrackRange, d: Drawing) {
  const bands = column.bands.map(
    (band) => `<div class="band ${classesOf(placeSpan(column, range, band.start, band.end))}"></div>`,
  );
  const blocks = placeBookings(column, range).map(({ booking, at }) => block(booking, classesOf(at), d));
  const none = column.bookings.length === 0 ? `<p class="sr-only">${esc(d.m.day.none)}</p>` : "";
  return `<div class="track">${bands.join("")}<ul aria-label="${esc(column.name)}">${blocks.join("")}</ul>${none}</div>`;
}

/**
 * The hours down the side, once for every column (read by no screen reader: each block says its
 * time): the wall clock's, written as the member's language writes times (a day in UTC says them
 * all, the hour a clock change skips too).
 */
function axis(range: TrackRange, d: Drawing) {
  const clock = formatsOf(d.f.locale, "UTC");
  const hours = Array.from({ length: (range.last - range.first) / 60 }, (_, i) => range.first + i * 60);
  return `<div class="axis" aria-hidden="true"><div>${hours.map((minute) => `<span>${esc(clock.time(minute * 60_000))}</span>`).join("")}</div></div>`;
}

/** A column's heading: a week's day (a link to that day), or a person (with a link to their week) or room. */
function heading(column: Column, d: Drawing) {
  if (column.kind === "day") return `<a href="${esc(column.href ?? "")}">${esc(d.f.shortDate(column.from))}</a>`;
  const kind = column.kind === "resource" ? esc(d.m.day.room) : "";
  const week = column.href ? `<a href="${esc(column.href)}">${esc(d.m.day.week)}</a>` : "";
  return `<span>${esc(column.name)} <span class="kind">${kind}</span></span>${week}`;
}

/** How a column's working hours read in words (for those who do not see the shading). */
function hoursText(column: Column, d: Drawing) {
  if (column.kind !== "provider" && column.kind !== "day" && column.bands.length === 0) return undefined;
  if (column.bands.length === 0) return esc(d.m.day.closed);
  const spans = column.bands.map((b) => `${d.time(b.start)}–${d.time(b.end)}`).join(", ");
  return `${esc(d.m.day.hours)}: ${spans}`;
}

/** One column: its heading, its hours in words, its track. */
function section(column: Column, index: number, range: TrackRange, d: Drawing) {
  // The hours' line is always there (empty for a room without hours): every column's track starts at the same height.
  return `<section class="column" aria-labelledby="c-${index}"><h2 id="c-${index}">${heading(column, d)}</h2><p class="hoursnote">${hoursText(column, d) ?? "\u00a0"}</p>${track(column, range, d)}</section>`;
}

/**
 * The board: the axis of hours and the columns, in a box that scrolls sideways when they do not
 * fit (the axis stays in view). The page and the live fragment are the same markup.
 */
export function renderColumns(parts: Parts) {
  const d: Drawing = { ...parts, time: timesOf(parts.f) };
  const { columns } = parts.board;
  if (columns.length === 0) return raw(`<p class="empty">${esc(parts.m.day.noColumns)}</p>`);
  const range = rangeOf(columns);
  const kind = columns[0]?.kind === "day" ? "columns week" : "columns";
  const sections = columns.map((column, index) => section(column, index, range, d)).join("");
  return raw(`<div class="board"><div class="${kind}">${axis(range, d)}${sections}</div></div>`);
}
