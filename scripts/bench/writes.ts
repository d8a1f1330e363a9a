/**
 * Writes of many bookings at once on two builds side by side (`npm run bench -- --writes
 * [--baseline <rev>]`): a weekly series of 52 (POST /series) and an import of 400 bookings of a
 * service with a person (the operator import), this tree beside a revision before it (default
 * main). Each call is timed from the request to its answer, which comes once D1 has the bookings;
 * the rounds alternate the builds so both are measured in the same minutes.
 */
import { checkoutAt } from "./baseline.ts";
import { call, provider, service, slotTime } from "./seed.ts";
import { BENCH_ADMIN_TOKEN, startBenchServer } from "./server.ts";

type Build = { name: string; url: string; key: string; seriesService: string; importService: string };

/** Two services of a fresh business on the build at `url`: many seats for series, one person for imports. */
async function prepare(name: string, url: string, key: string): Promise<Build> {
  const seriesService = (await call(url, key, "POST", "/services", service(`Series ${name}`, 1000))).body.id;
  const person = (await call(url, key, "POST", "/providers", provider(`Import person ${name}`))).body.id;
  const importService = (await call(url, key, "POST", "/services", service(`Import ${name}`, 1, [person]))).body.id;
  return { name, url, key, seriesService, importService };
}

/** Milliseconds from a request to its answer, which must be `status`. */
async function timed(what: string, status: number, send: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const res = await send();
  const ms = performance.now() - started;
  if (res.status !== status) throw new Error(`${what} answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  return ms;
}

/** A weekly series of 52 for a new customer. */
const series = (b: Build, n: number) =>
  timed("series", 201, () =>
    fetch(`${b.url}/api/v1/series`, {
      method: "POST",
      headers: { authorization: `Bearer ${b.key}`, "content-type": "application/json" },
      body: JSON.stringify({
        serviceId: b.seriesService,
        customerName: `Series customer ${n}`,
        customerEmail: `series${n}@example.com`,
        startTime: slotTime(24 * 12 + n),
        endTime: slotTime(24 * 12 + n + 1),
        recurrence: "FREQ=WEEKLY;COUNT=52",
      }),
    }),
  );

/** 400 bookings of consecutive free slots, each its own customer, through the operator import. */
const imported = (b: Build, round: number) => {
  const first = 24 * 12 * 20 + round * 400;
  const bookings = Array.from({ length: 400 }, (_, i) => ({
    customerName: `Imported ${i}`,
    customerEmail: `imported${round}.${i}@example.com`,
    startTime: slotTime(first + i),
    endTime: slotTime(first + i + 1),
  }));
  return timed("import", 200, () =>
    fetch(`${b.url}/internal/services/${b.importService}/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ bookings }),
    }),
  );
};

/** The medians of each build's rounds, and this tree's over the baseline's. */
export async function compareWrites(rev: string, rounds: number) {
  const sources = checkoutAt(rev);
  const servers = [await startBenchServer({ root: sources.root }), await startBenchServer()];
  try {
    const builds: Build[] = [];
    for (const [i, server] of servers.entries()) {
      const name = i === 0 ? rev : "this tree";
      builds.push(await prepare(name, server.url, await server.createAccount(`Writes ${name}`)));
    }
    const rows = Object.fromEntries(builds.map((b) => [b.name, { series: [] as number[], import: [] as number[] }]));
    // One of each first, not counted: each build's isolates and objects warm up.
    for (const build of builds) await series(build, 0);
    for (let r = 0; r < rounds; r++) {
      for (const build of builds) {
        const row = rows[build.name] as { series: number[]; import: number[] };
        row.series.push(await series(build, r + 1));
        row.import.push(await imported(build, r));
      }
    }
    const median = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number);
    const summary = Object.fromEntries(
      Object.entries(rows).map(([name, row]) => [
        name,
        { series52Ms: median(row.series), import400Ms: median(row.import) },
      ]),
    );
    const [before, after] = builds.map((b) => summary[b.name]) as [(typeof summary)[string], (typeof summary)[string]];
    return {
      rounds,
      builds: summary,
      seriesAfterOverBefore: Math.round((after.series52Ms / before.series52Ms) * 100) / 100,
      importAfterOverBefore: Math.round((after.import400Ms / before.import400Ms) * 100) / 100,
    };
  } finally {
    for (const server of servers) await server.dispose();
    sources.dispose();
  }
}
