/**
 * The slot calendar's sweep over claims (overlap-sweep.ts) answers, for every span, exactly the
 * claims a filter of all of them finds: spans in order (the slot calendar's pass), repeated, and
 * out of order.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { overlapSweep } from "../../src/calendar/rules/overlap-sweep";

type Claim = { id: number; blockedStart: number; blockedEnd: number };

const claims = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 1, max: 120 })), { maxLength: 60 })
  .map((spans) => spans.map(([start, length], id): Claim => ({ id, blockedStart: start, blockedEnd: start + length })));

/** Spans of one length with starts mostly rising: a pass over slots, with a step back now and then. */
const spans = fc
  .tuple(fc.integer({ min: 1, max: 90 }), fc.array(fc.integer({ min: -40, max: 30 }), { minLength: 1, maxLength: 80 }))
  .map(([length, steps]) => {
    let start = -20;
    return steps.map((step) => {
      start += step;
      return { start, end: start + length };
    });
  });

const ids = (found: Claim[]) => found.map((c) => c.id).sort((a, b) => a - b);

describe("overlap sweep", () => {
  it("finds for each span the claims a filter finds", () => {
    fc.assert(
      fc.property(claims, spans, (all, asked) => {
        const around = overlapSweep(all);
        const answers = asked.map((span) => around(span));
        for (const [i, span] of asked.entries()) {
          const filtered = all.filter((c) => c.blockedStart < span.end && c.blockedEnd > span.start);
          // Checked after the whole pass: an answer given out is not changed by later ones.
          expect(ids(answers[i] as Claim[]), `span ${i}: ${span.start}–${span.end}`).toEqual(ids(filtered));
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it("finds claims that touch a span's edges only when they overlap it", () => {
    const around = overlapSweep<Claim>([
      { id: 1, blockedStart: 0, blockedEnd: 10 },
      { id: 2, blockedStart: 10, blockedEnd: 20 },
      { id: 3, blockedStart: 19, blockedEnd: 30 },
    ]);
    expect(ids(around({ start: 10, end: 19 }))).toEqual([2]);
    expect(ids(around({ start: 10, end: 20 }))).toEqual([2, 3]);
    expect(ids(around({ start: 20, end: 30 }))).toEqual([3]);
    expect(ids(around({ start: 0, end: 5 }))).toEqual([1]);
  });
});
