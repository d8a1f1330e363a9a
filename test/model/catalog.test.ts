/**
 * The model-based test: random sequences of bookings, holds, moves, status changes, catalog and
 * people changes, and the clock moving, run against the real Worker, calendars and D1, with every
 * invariant checked after every command (test/model/system.ts). CI runs `MODEL_RUNS` sequences
 * (200 unless set); `npm run test:model -- --runs N [--seed S]` runs more. A failure prints the
 * seed, the path and the shrunk sequence of commands.
 */
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterEach, beforeEach, describe, it, vi } from "vitest";
import { commands, initialModel } from "./commands";
import type { Model } from "./model";
import { Relocate } from "./relocate";
import { setUp } from "./system";

const { MODEL_RUNS, MODEL_SEED } = env as unknown as { MODEL_RUNS: string; MODEL_SEED: string };
const runs = Number(MODEL_RUNS);
/** The run's seed, printed first so a hang can be replayed too (`--seed`). */
const seed = MODEL_SEED ? Number(MODEL_SEED) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("model-based: bookings, holds and catalog changes in any order", () => {
  it(`${runs} random sequences keep every guarantee`, { timeout: runs * 5_000 + 60_000 }, async () => {
    let sequences = 0;
    let commandsRun = 0;
    const started = Date.now();
    console.log(`model: seed ${seed}, ${runs} sequences`);
    await fc.assert(
      fc.asyncProperty(
        initialModel,
        fc.commands(commands, { maxCommands: 30, size: "medium" }),
        async (first: Model, sequence) => {
          const model = structuredClone(first);
          const system = await setUp(model);
          await fc.asyncModelRun(() => ({ model, real: system }), sequence);
          sequences++;
          commandsRun += [...sequence].length;
          if (sequences % 25 === 0) console.log(`model: ${sequences} sequences so far`);
        },
      ),
      { numRuns: runs, seed },
    );
    vi.useRealTimers();
    console.log(
      `model: ${sequences} sequences, ${commandsRun} commands (${Relocate.moves} moves between shards), ${Math.round((Date.now() - started) / 1000)} s`,
    );
  });
});
