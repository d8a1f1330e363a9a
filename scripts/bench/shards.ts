/**
 * Two tenants under list load at the same time: on two shards (one each) against both on one
 * shard, in alternation (pairs.ts explains why). Each side runs both tenants' loads at once and
 * counts their requests/s together; the ratio is two shards over one.
 *
 * What the local runtime can show: every D1 database of Miniflare is a SQLite file in the same
 * process, served by the same threads, so a second shard adds no hardware, and a list takes a
 * fraction of a millisecond of D1 here. What it cannot show: D1's one query at a time per
 * database on Cloudflare, which is what a second shard doubles. So a ratio near 1 here means
 * the shard routing costs nothing measurable; the gain is D1's, in production.
 */
import { runScenario, type ScenarioResult } from "./load.ts";
import { call, seedBookings, service } from "./seed.ts";
import type { BenchServer } from "./server.ts";

export type ShardsPair = {
  /** Both tenants' requests/s together, each round: on two shards, then on one. */
  twoShards: number[];
  oneShard: number[];
  /** Each round's two shards over one, and their median. */
  ratios: number[];
  median: number;
};

/** A business on `shard` with a service of `bookings` bookings; answers its key and its list's path. */
async function tenant(server: BenchServer, name: string, shard: number, bookings: number) {
  const key = await server.createAccount(name, shard);
  const id = (await call(server.url, key, "POST", "/services", service(name))).body.id;
  await seedBookings(server.url, id, 0, bookings);
  return { key, path: `/api/v1/bookings?serviceId=${id}&limit=20` };
}

/** Both tenants' list loads at once; their requests/s added up. */
async function together(server: BenchServer, seconds: number, tenants: { key: string; path: string }[]) {
  const runs: ScenarioResult[] = await Promise.all(
    tenants.map((t, i) =>
      runScenario(`tenant ${i}`, {
        url: server.url,
        seconds,
        apiKey: t.key,
        connections: 5,
        request: { path: t.path },
      }),
    ),
  );
  return Math.round(runs.reduce((sum, r) => sum + r.rps, 0));
}

/** The pair: tenants A (shard 0) and B (shard 1) against A and C (both shard 0). */
export async function twoShardsVsOne(server: BenchServer, seconds: number, rounds: number): Promise<ShardsPair> {
  const a = await tenant(server, "Shard pair A", 0, 500);
  const b = await tenant(server, "Shard pair B", 1, 500);
  const c = await tenant(server, "Shard pair C", 0, 500);
  const pair: ShardsPair = { twoShards: [], oneShard: [], ratios: [], median: 0 };
  for (let i = 0; i < rounds; i++) {
    const two = await together(server, seconds, [a, b]);
    const one = await together(server, seconds, [a, c]);
    pair.twoShards.push(two);
    pair.oneShard.push(one);
    pair.ratios.push(Math.round((two / Math.max(one, 1)) * 100) / 100);
  }
  const sorted = [...pair.ratios].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  pair.median =
    sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return pair;
}

/** The pair in one line. */
export function shardsLine(pair: ShardsPair): string {
  return `two tenants under list load, on two shards vs one: ${pair.twoShards.join(", ")} vs ${pair.oneShard.join(", ")} req/s together, median ×${pair.median} (×${pair.ratios.join(", ×")}; locally every shard is a file of the same process: see scripts/bench/shards.ts)`;
}
