/**
 * The business moved to the other shard (src/relocations), whole, between two commands: nothing the
 * model holds changes, and every guarantee is checked again on the new shard, whatever the
 * sequence did before (holds live, waitlists waiting, bookings moved, people changed).
 */
import type fc from "fast-check";
import { expect } from "vitest";
import { api, shardOf } from "../support/api";
import { driveRelocation, startRelocation } from "../support/shards";
import type { Model } from "./model";
import { checkInvariants, type System } from "./system";

export class Relocate implements fc.AsyncCommand<Model, System> {
  /** Moves run in this process (the run's summary counts them). */
  static moves = 0;
  check = () => true;
  async run(m: Model, sys: System) {
    Relocate.moves++;
    const to = (await shardOf(sys.businessId)) === 0 ? 1 : 0;
    await startRelocation(sys.businessId, to);
    expect(await driveRelocation(sys.businessId), "the move").toMatchObject({ step: "done", error: null });
    sys.log.push(`moved to shard ${to}`);
    // This isolate knew the old shard: its first keyed read and its page's first request are one
    // 503 each (docs/operations.md, "Relocating a business"); the retries are answered.
    const visitor = { "CF-Connecting-IP": sys.visitor };
    for (const [path, key, headers] of [
      ["/business", sys.apiKey, undefined],
      [`http://api.test/api/v1/public/${sys.slug}/services`, null, visitor],
    ] as const) {
      let res = await api("GET", path, { key, headers });
      if (res.status === 503) res = await api("GET", path, { key, headers });
      expect(res.status, `${path} after the move`).toBe(200);
    }
    // A move frees no seat: the offers it runs on release are checked as any, none is owed.
    await checkInvariants(m, sys);
  }
  toString = () => "relocate()";
}
