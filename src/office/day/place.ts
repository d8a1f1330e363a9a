/**
 * Where things go in a column's track: steps of 5 minutes (8 px each, 96 px an hour), one range
 * of whole hours shared by every column (at least 08:00–18:00, widened to the hours and bookings
 * shown), and side-by-side lanes for bookings that overlap. A place is said by a few classes the
 * office stylesheet defines once (src/office/assets/style.ts): the start step as whole hours
 * (`a`) and steps past them (`b`), the length likewise (`c`, `d`), the lane and how many share
 * the width (`l`, `n`); zeros and a lone lane are the stylesheet's defaults and left out.
 */
import type { DayBooking } from "./bookings";
import type { Column } from "./load";

const MINUTE = 60_000;

/** Minutes on the wall clock from a column's midnight to `instant`. */
const minutesOf = (column: Column, instant: number) =>
  (instant - column.from) / MINUTE - (column.clock && instant >= column.clock.at ? column.clock.by : 0);
/** The track's step: a place is said in 5-minute steps (a start rounded down, an end up). */
export const STEP_MINUTES = 5;
const STEPS_PER_HOUR = 60 / STEP_MINUTES;
/** The shortest a block is drawn (40 px), so its time and names stay readable. */
const MIN_BLOCK_STEPS = 5;
/** The most hours a track holds: a day that gains an hour when the clocks go back. */
export const MAX_HOURS = 25;
/** The most lanes drawn side by side; past it, lanes share places (at 1/40 of a column nothing is readable). */
export const MAX_LANES = 40;

/** The shown range, in minutes after each column's start. */
export type TrackRange = { first: number; last: number };

/** The whole hours every column shows: 08–18 at least, widened to what the columns hold. */
export function rangeOf(columns: Column[]): TrackRange {
  let first = 8 * 60;
  let last = 18 * 60;
  for (const column of columns) {
    const length = minutesOf(column, column.to);
    for (const span of [...column.bands, ...column.bookings]) {
      first = Math.min(first, Math.max(0, minutesOf(column, span.start)));
      last = Math.max(last, Math.min(length, minutesOf(column, span.end)));
    }
  }
  return { first: Math.floor(first / 60) * 60, last: Math.ceil(last / 60) * 60 };
}

/** A placed element: its first step and how many steps it covers; a booking's lane and the lanes beside it. */
export type Placed = { step: number; steps: number; lane?: number; lanes?: number };

/** The steps a span of instants covers in a column (its start rounded down, its end up). */
export function placeSpan(column: Column, range: TrackRange, start: number, end: number, min = 0): Placed {
  const total = ((range.last - range.first) / 60) * STEPS_PER_HOUR;
  const stepOf = (instant: number) => (minutesOf(column, instant) - range.first) / STEP_MINUTES;
  const step = Math.min(total, Math.max(0, Math.floor(stepOf(start))));
  const last = Math.min(total, Math.max(0, Math.ceil(stepOf(end))));
  return { step, steps: Math.max(min, last - step) };
}

/**
 * The bookings of a column in the order they start, each with its place: each overlapping group
 * shares the width, each booking in the first lane free at its start.
 */
export function placeBookings(column: Column, range: TrackRange): { booking: DayBooking; at: Placed }[] {
  const placed = column.bookings
    .map((booking) => ({
      booking,
      at: placeSpan(column, range, booking.start, booking.end, MIN_BLOCK_STEPS),
    }))
    .sort(
      (x, y) => x.at.step - y.at.step || x.booking.start - y.booking.start || (x.booking.id < y.booking.id ? -1 : 1),
    );
  let group: Placed[] = [];
  let laneEnds: number[] = [];
  let groupEnd = 0;
  const close = () => {
    if (laneEnds.length > 1) for (const at of group) at.lanes = laneEnds.length;
    group = [];
    laneEnds = [];
  };
  for (const { at } of placed) {
    // A block drawn longer than its time still must not hide the next one.
    if (group.length > 0 && at.step >= groupEnd) close();
    let lane = laneEnds.findIndex((end) => end <= at.step);
    if (lane < 0) lane = laneEnds.push(0) - 1;
    laneEnds[lane] = at.step + at.steps;
    groupEnd = group.length === 0 ? at.step + at.steps : Math.max(groupEnd, at.step + at.steps);
    at.lane = lane;
    group.push(at);
  }
  close();
  return placed;
}

/** The classes that say a place (see the module's note); an empty string for the top, 0 long. */
export function classesOf(at: Placed): string {
  const out: string[] = [];
  const add = (letter: string, value: number) => {
    if (value > 0) out.push(`${letter}${value}`);
  };
  add("a", Math.floor(at.step / STEPS_PER_HOUR));
  add("b", at.step % STEPS_PER_HOUR);
  add("c", Math.floor(at.steps / STEPS_PER_HOUR));
  add("d", at.steps % STEPS_PER_HOUR);
  if (at.lanes !== undefined && at.lanes > 1) {
    add("l", (at.lane ?? 0) % MAX_LANES);
    add("n", Math.min(at.lanes, MAX_LANES));
  }
  return out.join(" ");
}
