/**
 * Where things go in a column's track: a vertical scale of minutes (1.6 px each, 96 px an hour),
 * one range of whole hours shared by every column (at least 08:00–18:00, widened to the hours and
 * bookings shown), and side-by-side lanes for bookings that overlap.
 */
import type { Column } from "./load";

/** The track's scale: 96 px an hour. */
export const PX_PER_MINUTE = 1.6;
const MINUTE = 60_000;
/** The shortest a block is drawn, so its time and names stay readable. */
const MIN_BLOCK_PX = 40;

/** The shown range, in minutes after each column's start. */
export type TrackRange = { first: number; last: number };

/** The whole hours every column shows: 08–18 at least, widened to what the columns hold. */
export function rangeOf(columns: Column[]): TrackRange {
  let first = 8 * 60;
  let last = 18 * 60;
  for (const column of columns) {
    const length = (column.to - column.from) / MINUTE;
    const spans = [
      ...column.bands,
      ...column.bookings.map((b) => ({ start: Date.parse(b.startTime), end: Date.parse(b.endTime) })),
    ];
    for (const span of spans) {
      first = Math.min(first, Math.max(0, (span.start - column.from) / MINUTE));
      last = Math.max(last, Math.min(length, (span.end - column.from) / MINUTE));
    }
  }
  return { first: Math.floor(first / 60) * 60, last: Math.ceil(last / 60) * 60 };
}

/** A placed element: its vertical position and height in px, its lane's left and width in %. */
export type Placed = { y: number; h: number; x?: number; w?: number };

/** The vertical position of a span in a column. */
export function placeSpan(column: Column, range: TrackRange, start: number, end: number, min = 0): Placed {
  const y = Math.max(0, ((start - column.from) / MINUTE - range.first) * PX_PER_MINUTE);
  const bottom = Math.min(
    (range.last - range.first) * PX_PER_MINUTE,
    ((end - column.from) / MINUTE - range.first) * PX_PER_MINUTE,
  );
  return { y: Math.round(y), h: Math.round(Math.max(min, bottom - y)) };
}

/**
 * The bookings of a column in lanes: each overlapping group shares the width, each booking in the
 * first lane free at its start. Answers each booking's place by id.
 */
export function placeBookings(column: Column, range: TrackRange): Map<string, Placed> {
  const sorted = [...column.bookings].sort(
    (a, b) => a.startTime.localeCompare(b.startTime) || a.id.localeCompare(b.id),
  );
  const placed = new Map<string, Placed>();
  let group: { id: string; lane: number }[] = [];
  let laneEnds: number[] = [];
  let groupEnd = 0;
  const close = () => {
    const lanes = laneEnds.length;
    for (const { id, lane } of group) {
      const at = placed.get(id) as Placed;
      if (lanes > 1) placed.set(id, { ...at, x: (lane * 100) / lanes, w: 100 / lanes });
    }
    group = [];
    laneEnds = [];
    groupEnd = 0;
  };
  for (const booking of sorted) {
    const at = placeSpan(column, range, Date.parse(booking.startTime), Date.parse(booking.endTime), MIN_BLOCK_PX);
    // A block drawn taller than its time still must not hide the next one.
    const top = at.y;
    if (group.length > 0 && top >= groupEnd) close();
    let lane = laneEnds.findIndex((end) => end <= top);
    if (lane < 0) lane = laneEnds.push(0) - 1;
    laneEnds[lane] = top + at.h;
    groupEnd = Math.max(groupEnd, top + at.h);
    group.push({ id: booking.id, lane });
    placed.set(booking.id, at);
  }
  close();
  return placed;
}

/** The CSS rule placing an element with this id. */
export function ruleOf(id: string, at: Placed): string {
  const lane = at.x !== undefined ? `left:${at.x.toFixed(3)}%;width:${(at.w ?? 100).toFixed(3)}%;` : "";
  return `#${id}{top:${at.y}px;height:${at.h}px;${lane}}`;
}

/** The data attributes the script places an element by after a live update. */
export const dataOf = (at: Placed) => ({
  "data-y": String(at.y),
  "data-h": String(at.h),
  ...(at.x !== undefined ? { "data-x": at.x.toFixed(3), "data-w": (at.w ?? 100).toFixed(3) } : {}),
});
