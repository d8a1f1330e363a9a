/**
 * Public reads that find their shard by their token — a feed poll and a manage-link read — on two
 * builds side by side (`npm run bench -- --probes --baseline <rev>`): this tree and a revision
 * before it. Each build's business is on shard 1, so a read that asks every shard pays a read of
 * shard 0 too; the rounds alternate the builds so both are measured in the same minutes.
 */
import { checkoutAt } from "./baseline.ts";
import { runScenario } from "./load.ts";
import { bookingBody, call, provider, service, slotOfDay } from "./seed.ts";
import { startBenchServer } from "./server.ts";

type Paths = { name: string; url: string; feed: string; manage: string };

/** A person with a feed and one booking (its manage link) on shard 1 of the build at `url`. */
async function prepare(name: string, url: string, key: string): Promise<Paths> {
  const person = (await call(url, key, "POST", "/providers", provider(`Probe person ${name}`))).body.id;
  const serviceId = (await call(url, key, "POST", "/services", service(`Probe ${name}`, 1, [person]))).body.id;
  const booked = (await call(url, key, "POST", "/bookings", bookingBody(serviceId, slotOfDay(2)))).body as unknown as {
    manageUrl: string;
  };
  const feed = (await call(url, key, "POST", `/providers/${person}/feed`)).body as unknown as { url: string };
  return { name, url, feed: new URL(feed.url).pathname, manage: new URL(booked.manageUrl).pathname };
}

/** One read's p50 (ms) and requests/s, on one connection for `seconds`, each from a new client address. */
async function measure(build: Paths, what: "feed" | "manage", seconds: number) {
  let n = 0;
  const result = await runScenario(`${build.name}: ${what}`, {
    url: build.url,
    seconds,
    connections: 1,
    expectStatus: 200,
    // A fresh address each time: the public per-address limit would otherwise answer 429s.
    request: () => ({ path: build[what], headers: { "CF-Connecting-IP": `198.51.${(n >> 8) & 255}.${n++ & 255}` } }),
  });
  return { p50: result.p50, mean: result.mean, rps: result.rps, unexpected: result.unexpected ?? 0 };
}

/** The medians of each build's rounds, and this tree's mean latency over the baseline's. */
export async function compareProbes(rev: string, rounds: number, seconds: number) {
  const sources = checkoutAt(rev);
  const servers = [await startBenchServer({ root: sources.root }), await startBenchServer()];
  try {
    const builds: Paths[] = [];
    for (const [i, server] of servers.entries()) {
      const name = i === 0 ? rev : "this tree";
      builds.push(await prepare(name, server.url, await server.createAccount(`Probes ${name}`, 1)));
    }
    const rows: Record<string, { feed: number[]; manage: number[]; unexpected: number }> = Object.fromEntries(
      builds.map((b) => [b.name, { feed: [], manage: [], unexpected: 0 }]),
    );
    for (let r = 0; r < rounds; r++) {
      for (const build of builds) {
        const row = rows[build.name] as { feed: number[]; manage: number[]; unexpected: number };
        for (const what of ["feed", "manage"] as const) {
          const m = await measure(build, what, seconds);
          row[what].push(m.mean);
          row.unexpected += m.unexpected;
        }
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    const summary = Object.fromEntries(
      Object.entries(rows).map(([name, row]) => [
        name,
        { feedMeanMs: median(row.feed), manageMeanMs: median(row.manage), non200: row.unexpected },
      ]),
    );
    const [before, after] = builds.map((b) => summary[b.name]) as [(typeof summary)[string], (typeof summary)[string]];
    return {
      builds: summary,
      feedAfterOverBefore: Math.round((after.feedMeanMs / before.feedMeanMs) * 100) / 100,
      manageAfterOverBefore: Math.round((after.manageMeanMs / before.manageMeanMs) * 100) / 100,
    };
  } finally {
    for (const server of servers) await server.dispose();
    sources.dispose();
  }
}
