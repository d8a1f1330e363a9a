/**
 * The conflicts' pass over a person's bookings and busy times (src/calendar/provider/conflicts.ts,
 * `busyOver`) finds, for every booking, exactly the busy span a check of every span finds — the
 * first that overlaps it (touching is not overlapping) — in one walk over both: 1,000 events over
 * 1,000 bookings is about 2,000 steps, not a million.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BusySpan } from "../../src/calendar/connected/expand";
import { type BookedSpan, busyOver } from "../../src/calendar/provider/conflicts";

/** Disjoint busy spans by start, as the busy store merges them. */
const busy = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 60 })), { maxLength: 60 })
  .map((steps) => {
    let at = 0;
    return steps.map(([gap, length]): BusySpan => {
      const span = { start: at + gap, end: at + gap + length };
      at = span.end;
      return span;
    });
  });

/** Bookings by start (they may overlap one another: a person's group sessions, a move under way). */
const booked = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 1, max: 90 })), { maxLength: 60 })
  .map((spans) =>
    spans
      .map(([start, length], i): BookedSpan => ({ bookingId: `b${i}`, start, end: start + length }))
      .sort((a, b) => a.start - b.start),
  );

/** The check of every span: the first (by start) that overlaps each booking. */
function everySpan(bookings: readonly BookedSpan[], spans: readonly BusySpan[]): Map<string, BusySpan> {
  const hits = new Map<string, BusySpan>();
  for (const b of bookings) {
    const span = spans.find((s) => s.start < b.end && s.end > b.start);
    if (span) hits.set(b.bookingId, span);
  }
  return hits;
}

describe("busyOver", () => {
  it("finds exactly the busy span a check of every span finds", () => {
    fc.assert(
      fc.property(booked, busy, (bookings, spans) => {
        expect(busyOver(bookings, spans)).toEqual(everySpan(bookings, spans));
      }),
      { numRuns: 500 },
    );
  });

  it("touching is not overlapping; one long span covers every booking under it", () => {
    const spans = [{ start: 100, end: 200 }];
    const bookings = [
      { bookingId: "before", start: 70, end: 100 },
      { bookingId: "inside", start: 120, end: 150 },
      { bookingId: "across", start: 190, end: 220 },
      { bookingId: "after", start: 200, end: 230 },
    ];
    expect([...busyOver(bookings, spans).keys()]).toEqual(["inside", "across"]);
  });

  it("1,000 events over 1,000 bookings, each covering one: all 1,000 found", () => {
    const spans = Array.from({ length: 1000 }, (_, i) => ({ start: i * 100, end: i * 100 + 30 }));
    const bookings = Array.from({ length: 1000 }, (_, i) => ({
      bookingId: `b${i}`,
      start: i * 100 + 20,
      end: i * 100 + 50,
    }));
    const hits = busyOver(bookings, spans);
    expect(hits.size).toBe(1000);
    expect(hits.get("b999")).toEqual({ start: 99_900, end: 99_930 });
  });
});
