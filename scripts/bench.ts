/**
 * `npm run bench [-- --json] [-- --seconds N]`: throughput and latency of the production bundle on
 * workerd, each scenario reported against the `/health` floor measured in the same run.
 * Prints one table and writes bench/results.json. Takes about four minutes on two cores.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { runScenario, type ScenarioResult } from "./bench/load.ts";
import { BENCH_ADMIN_TOKEN, startBenchServer } from "./bench/server.ts";

const { values: args } = parseArgs({
  options: { json: { type: "boolean", default: false }, seconds: { type: "string", default: "4" } },
});
const seconds = Number(args.seconds);
const root = path.resolve(import.meta.dirname, "..");
const log = (msg: string) => process.stderr.write(`${msg}\n`);
const DAY = 86_400_000;
const SLOT = 5 * 60_000;
/** Slots start tomorrow at 00:00 UTC; slot n is n × 5 minutes later. */
const origin = Math.ceil(Date.now() / DAY) * DAY + DAY;
const slotTime = (n: number) => new Date(origin + n * SLOT).toISOString();

const allDay = [{ start: "00:00", end: "24:00" }];
const service = (name: string, capacity = 1) => ({
  name,
  durationMinutes: 5,
  capacity,
  timezone: "UTC",
  maxAdvanceDays: 730,
  weeklySchedule: { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay },
});
const bookingBody = (serviceId: string, n: number, who = n) =>
  JSON.stringify({
    serviceId,
    customerName: `Customer ${who % 500}`,
    customerEmail: `customer${who % 500}@example.com`,
    startTime: slotTime(n),
    endTime: slotTime(n + 1),
  });

const server = await startBenchServer();
log(`bench: serving the bundle (${server.bundle.gzip} B gzip) at ${server.url}`);

async function call(key: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${server.url}/api/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { id: string } };
}

/**
 * Puts `count` bookings in consecutive slots from `firstSlot` through the operator import (the
 * same rules and calendar transaction as POST /bookings, 250 a call to stay under the 64 KiB
 * body limit); returns how many landed.
 */
async function seedBookings(serviceId: string, firstSlot: number, count: number) {
  let imported = 0;
  for (let from = 0; from < count; from += 250) {
    const bookings = Array.from({ length: Math.min(250, count - from) }, (_, i) => {
      const { serviceId: _s, ...booking } = JSON.parse(bookingBody(serviceId, firstSlot + from + i)) as Record<
        string,
        string
      >;
      return booking;
    });
    const res = await fetch(`${server.url}/internal/services/${serviceId}/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ bookings }),
    });
    if (!res.ok) throw new Error(`import answered ${res.status}: ${await res.text()}`);
    imported += ((await res.json()) as { imported: number }).imported;
  }
  return imported;
}

try {
  const results: ScenarioResult[] = [];
  const run = async (name: string, options: Omit<Parameters<typeof runScenario>[1], "url" | "seconds">) => {
    log(`bench: ${name}`);
    const r = await runScenario(name, { url: server.url, seconds, ...options });
    results.push(r);
    return r;
  };

  // Data, all through the API: 10,000 bookings in one service, a catalog, customers.
  const key = await server.createAccount("Bench Salon");
  const listed = (await call(key, "POST", "/services", service("Listed"))).body.id;
  for (let i = 0; i < 15; i++) await call(key, "POST", "/services", service(`Catalog ${i}`));
  let t = performance.now();
  const seeded = await seedBookings(listed, 0, 10_000);
  const seedRate = Math.round(seeded / ((performance.now() - t) / 1000));
  log(`bench: seeded ${seeded} bookings at ${seedRate}/s`);

  const health = await run("GET /health", { connections: 10, request: { path: "/api/v1/health" } });
  await run("GET /services", { apiKey: key, connections: 10, request: { path: "/api/v1/services" } });
  await run("GET /customers?search=", {
    apiKey: key,
    connections: 10,
    request: { path: "/api/v1/customers?search=customer4" },
  });
  await run("GET /bookings?limit=20", { apiKey: key, connections: 10, request: { path: "/api/v1/bookings?limit=20" } });
  await run("GET /bookings page 1", {
    apiKey: key,
    connections: 1,
    request: { path: "/api/v1/bookings?page=1&limit=20" },
  });
  await run("GET /bookings last page", {
    apiKey: key,
    connections: 1,
    request: { path: "/api/v1/bookings?page=500&limit=20" },
  });
  const day = (d: number) => `from=${slotTime((d * DAY) / SLOT)}&to=${slotTime(((d + 1) * DAY) / SLOT)}`;
  const week = `from=${slotTime(0)}&to=${slotTime((7 * DAY) / SLOT)}`;
  await run("GET availability 1 day", {
    apiKey: key,
    connections: 10,
    request: { path: `/api/v1/services/${listed}/availability?${day(3)}` },
  });
  await run("GET availability 7 days", {
    apiKey: key,
    connections: 10,
    request: { path: `/api/v1/services/${listed}/availability?${week}` },
  });

  // Creates into distinct free slots: one hot service, then spread over 16.
  const hot = (await call(key, "POST", "/services", service("Hot"))).body.id;
  let hotSlot = 0;
  await run("POST /bookings hot service", {
    apiKey: key,
    connections: 10,
    request: () => ({ method: "POST", path: "/api/v1/bookings", body: bookingBody(hot, hotSlot++) }),
  });
  const spread: string[] = [];
  for (let i = 0; i < 16; i++) spread.push((await call(key, "POST", "/services", service(`Spread ${i}`))).body.id);
  let spreadN = 0;
  await run("POST /bookings 16 services", {
    apiKey: key,
    connections: 16,
    request: () => {
      const n = spreadN++;
      return {
        method: "POST",
        path: "/api/v1/bookings",
        body: bookingBody(spread[n % 16] as string, Math.floor(n / 16)),
      };
    },
  });

  // Create latency with 0 vs 50,000 bookings already in the service (new slots far from them).
  const bigKey = await server.createAccount("Bench Big");
  const empty = (await call(bigKey, "POST", "/services", service("Empty"))).body.id;
  const big = (await call(bigKey, "POST", "/services", service("Big"))).body.id;
  t = performance.now();
  const bigSeeded = await seedBookings(big, 0, 50_000);
  log(`bench: seeded ${bigSeeded} bookings into one service in ${Math.round(performance.now() - t)} ms`);
  const far = (400 * DAY) / SLOT;
  let n0 = far;
  let n50 = far;
  const create0 = await run("POST /bookings, 0 in service", {
    apiKey: bigKey,
    connections: 1,
    request: () => ({ method: "POST", path: "/api/v1/bookings", body: bookingBody(empty, n0++) }),
  });
  const create50k = await run("POST /bookings, 50k in service", {
    apiKey: bigKey,
    connections: 1,
    request: () => ({ method: "POST", path: "/api/v1/bookings", body: bookingBody(big, n50++) }),
  });

  // Double-booking storm: 200 concurrent creates for one slot of a capacity-2 service.
  const stormService = (await call(key, "POST", "/services", service("Storm", 2))).body.id;
  t = performance.now();
  const storm = await Promise.all(
    Array.from({ length: 200 }, (_, i) => call(key, "POST", "/bookings", bookingBody(stormService, 10, i))),
  );
  const stormMs = Math.round(performance.now() - t);
  const stormWins = storm.filter((r) => r.status === 201).length;

  const devMs = await devServerFirstResponse();

  const ratio = (r: ScenarioResult) => Math.round((r.rps / health.rps) * 100) / 100;
  const byName = (name: string) => results.find((r) => r.name === name) as ScenarioResult;
  const lastVsFirst = byName("GET /bookings last page").p50 / Math.max(0.01, byName("GET /bookings page 1").p50);
  const targets = {
    listsAtLeast040xHealth: ["GET /services", "GET /customers?search=", "GET /bookings?limit=20"].every(
      (n) => ratio(byName(n)) >= 0.4,
    ),
    hotCreatesAtLeast025xHealth: ratio(byName("POST /bookings hot service")) >= 0.25,
    createP50At50kWithin120pct: create50k.p50 <= 1.2 * Math.max(create0.p50, 1),
    lastPageWithin150pctOfFirst: lastVsFirst <= 1.5,
    oneDayAvailabilityAtLeast040x: ratio(byName("GET availability 1 day")) >= 0.4,
    bundleAtMost150KBGzip: server.bundle.gzip <= 150 * 1024,
    stormExactlyCapacity: stormWins === 2,
  };
  const report = {
    date: new Date().toISOString(),
    secondsPerScenario: seconds,
    node: process.version,
    scenarios: results.map((r) => ({ ...r, ratioToHealth: ratio(r) })),
    seedCreatesPerSecond: seedRate,
    create: {
      p50At0: create0.p50,
      p50At50k: create50k.p50,
      ratio: Math.round((create50k.p50 / Math.max(create0.p50, 1)) * 100) / 100,
    },
    lastPageVsFirstP50: Math.round(lastVsFirst * 100) / 100,
    storm: {
      requests: 200,
      capacity: 2,
      succeeded: stormWins,
      conflicts: storm.filter((r) => r.status === 409).length,
      wallMs: stormMs,
    },
    bundle: server.bundle,
    devServerFirstResponseMs: devMs,
    targets,
  };

  if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    console.log("| scenario | req/s | p50 ms | p99 ms | × /health | non-2xx |");
    console.log("|---|---:|---:|---:|---:|---:|");
    for (const r of report.scenarios)
      console.log(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.ratioToHealth} | ${r.non2xx} |`);
    console.log(
      `\ncreate p50: ${create0.p50} ms with 0 bookings, ${create50k.p50} ms with 50,000 (×${report.create.ratio})`,
    );
    console.log(`last page vs first page p50: ×${report.lastPageVsFirstP50}`);
    console.log(`storm: ${stormWins} of 200 succeeded (capacity 2), ${report.storm.conflicts} × 409, ${stormMs} ms`);
    console.log(
      `bundle: ${server.bundle.raw} B raw, ${server.bundle.gzip} B gzip; dev server first response: ${devMs} ms`,
    );
    console.log(
      `targets: ${Object.entries(targets)
        .map(([k, v]) => `${k} ${v ? "yes" : "NO"}`)
        .join(", ")}`,
    );
  }
  mkdirSync(path.join(root, "bench"), { recursive: true });
  writeFileSync(path.join(root, "bench", "results.json"), `${JSON.stringify(report, null, 2)}\n`);
} finally {
  await server.dispose();
}

/** Milliseconds from `npm run dev` (fresh state) to the first `/health` answer. */
async function devServerFirstResponse(): Promise<number> {
  const state = mkdtempSync(path.join(tmpdir(), "booking-dev-"));
  const port = 8790 + Math.floor(Math.random() * 100);
  const started = performance.now();
  const child = spawn("npm", ["run", "--silent", "dev", "--", "--port", String(port), "--persist-to", state], {
    cwd: root,
    stdio: "ignore",
    detached: true,
  });
  try {
    for (let waited = 0; waited < 60_000; waited += 100) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
        if (res.ok) return Math.round(performance.now() - started);
      } catch {}
      await new Promise((r) => setTimeout(r, 100));
    }
    return -1;
  } finally {
    if (child.pid) process.kill(-child.pid, "SIGTERM");
    rmSync(state, { recursive: true, force: true });
  }
}
