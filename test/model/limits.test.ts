/**
 * The model-based test aimed at booking limits and balanced assignment: the same commands and
 * checks as catalog.test.ts (every limit and the balance checked after every command, see
 * limits.ts), from a first state where limits meet bookings — both services performed by both
 * people around the clock, small limits on most of them — and with bookings, holds, moves and
 * cancels weighing most, limits and assignment changed at random among them. `MODEL_RUNS` / 2
 * sequences (at least 20).
 */
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterEach, beforeEach, describe, it, vi } from "vitest";
import {
  Advance,
  Convert,
  Create,
  Hold,
  Move,
  PatchProvider,
  PatchService,
  Release,
  Series,
  Status,
  Visit,
} from "./commands";
import { MINUTE, type Model, type ProviderKey, type ServiceKey, T0 } from "./model";
import { setUp } from "./system";

const { MODEL_RUNS, MODEL_SEED } = env as unknown as { MODEL_RUNS: string; MODEL_SEED: string };
const runs = Math.max(20, Math.round(Number(MODEL_RUNS) / 2));
const seed = MODEL_SEED ? Number(MODEL_SEED) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;

const service = fc.constantFrom<ServiceKey>("S0", "S1");
const person = fc.constantFrom<ProviderKey>("P0", "P1");
/** Mostly nobody named: balanced assignment decides. */
const maybeProvider = fc.oneof(fc.constant(null), fc.constant(null), person);
const day = fc.integer({ min: 0, max: 2 });
/** Indexes into the commands' start times (commands.ts `times`): every one is worked around the clock. */
const time = fc.integer({ min: 0, max: 13 });
const index = fc.nat(20);
const who = fc.integer({ min: 0, max: 2 });
const often = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 4 });
const limits = fc.record({
  limits: often(
    fc.record({ perDay: often(fc.integer({ min: 1, max: 3 })), perWeek: often(fc.integer({ min: 2, max: 5 })) }),
  ),
  perCustomer: often(fc.integer({ min: 1, max: 2 })),
  assignment: fc.constantFrom<"first" | "balanced">("first", "balanced", "balanced"),
});
const providerLimit = often(fc.integer({ min: 1, max: 3 }));

const commands = [
  fc.tuple(service, day, time, maybeProvider, who).map(([s, d, t, p, c]) => new Create(s, d, t, p, c)),
  fc.tuple(service, day, time, maybeProvider, who).map(([s, d, t, p, c]) => new Create(s, d, t, p, c)),
  fc.tuple(service, day, time, maybeProvider, who).map(([s, d, t, p, c]) => new Create(s, d, t, p, c)),
  fc.tuple(service, day, time, maybeProvider, who).map(([s, d, t, p, c]) => new Create(s, d, t, p, c)),
  fc.tuple(service, day, time, maybeProvider, fc.constant(600)).map(([s, d, t, p, ttl]) => new Hold(s, d, t, p, ttl)),
  fc.tuple(index, who).map(([i, c]) => new Convert(i, c)),
  index.map((i) => new Release(i)),
  fc
    .tuple(index, fc.constantFrom("CANCELLED", "COMPLETED") as fc.Arbitrary<"CANCELLED" | "COMPLETED">)
    .map(([i, s]) => new Status(i, s)),
  fc.tuple(index, day, time, maybeProvider).map(([i, d, t, p]) => new Move(i, d, t, p)),
  fc.tuple(service, day, time, maybeProvider, who).map(([s, d, t, p, c]) => new Visit(s, d, t, p, c)),
  fc
    .tuple(
      service,
      day,
      time,
      maybeProvider,
      fc.record({ weekly: fc.boolean(), count: fc.constant(3), skip: fc.boolean() }),
      who,
    )
    .map(([s, d, t, p, rule, c]) => new Series(s, d, t, p, rule, c)),
  fc.tuple(service, limits).map(([s, { limits: l }]) => new PatchService(s, { limits: l })),
  fc.tuple(service, limits).map(([s, { perCustomer }]) => new PatchService(s, { perCustomer })),
  fc.tuple(service, limits).map(([s, { assignment }]) => new PatchService(s, { assignment })),
  fc.tuple(person, providerLimit).map(([p, perDay]) => new PatchProvider(p, { perDay })),
  fc.constantFrom(120, 1440).map((mins) => new Advance(mins)),
];

const serviceOf = (
  limited: { limits?: object; perCustomer?: number; assignment: "first" | "balanced" },
  capacity: number,
) => ({
  capacity,
  hours: "allDay" as const,
  providers: ["P0", "P1"] as ProviderKey[],
  mode: "one" as const,
  resources: [],
  duration: 30,
  cancelNotice: 0,
  moveNotice: 0,
  bufferBefore: 0,
  bufferAfter: 0,
  active: true,
  ...limited,
});

/** A first state where limits meet bookings (see the module comment). */
const initialModel: fc.Arbitrary<Model> = fc
  .record({
    s0: limits,
    s1: limits,
    capacity: fc.integer({ min: 1, max: 2 }),
    p0: fc.record({ zone: fc.constantFrom("UTC", "Asia/Kolkata" as const), perDay: providerLimit }),
    p1: fc.record({ zone: fc.constantFrom("UTC", "Asia/Kolkata" as const), perDay: providerLimit }),
  })
  .map(({ s0, s1, capacity, p0, p1 }) => ({
    now: T0 - 12 * 60 * MINUTE,
    services: { S0: serviceOf(s0, capacity), S1: serviceOf(s1, 1) },
    providers: {
      P0: { ...p0, hours: "allDay" as const, dayOff: null, active: true },
      P1: { ...p1, hours: "allDay" as const, dayOff: null, active: true },
    },
    resources: { R0: { quantity: 1, hours: null, active: true } },
    bookings: [],
    holds: [],
  }));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("model-based: booking limits and balanced assignment", () => {
  it(`${runs} random sequences keep every limit and the balance`, { timeout: runs * 5_000 + 60_000 }, async () => {
    let sequences = 0;
    let commandsRun = 0;
    console.log(`model (limits): seed ${seed}, ${runs} sequences`);
    await fc.assert(
      fc.asyncProperty(
        initialModel,
        fc.commands(commands, { maxCommands: 30, size: "medium" }),
        async (first, sequence) => {
          const model = structuredClone(first);
          const system = await setUp(model);
          await fc.asyncModelRun(() => ({ model, real: system }), sequence);
          sequences++;
          commandsRun += [...sequence].length;
        },
      ),
      { numRuns: runs, seed },
    );
    vi.useRealTimers();
    console.log(`model (limits): ${sequences} sequences, ${commandsRun} commands`);
  });
});
