/**
 * `npx node scripts/bench/soak-dev.ts [--requests N] [--seconds S] [--worker api|one-line] [--mix all|health]`:
 * where the memory of `npm run dev` goes under load (docs/performance.md, "Memory under npm run
 * dev"). Starts `npm run dev` on a free port with a fresh state folder holding 20
 * extra businesses, gives each a service, then keeps 20 requests in flight — lists, one day's
 * availability and creates, in turn over the businesses — until N requests (default 20,000) or
 * S seconds (default 300), whichever comes first. Every 1,000 requests it reads the resident
 * memory of each workerd process of the server and the API isolate's JS heap after a forced
 * collection (through wrangler's inspector), and prints a table. `--worker one-line` serves a
 * one-line Worker under the same `wrangler dev` instead (GET / only): the runtime's own growth.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { newBusiness } from "../../src/business/new-business.ts";
import { freePort, startDevServer, stopGroup } from "../../test/support/dev-server.ts";
import { insertApiKeySql, insertBusinessSql } from "../lib/businesses.ts";
import { newDatabaseStatements } from "../lib/dev-state.ts";
import { batchLocalD1 } from "../lib/local-d1.ts";
import { spawnWrangler } from "../lib/wrangler.ts";
import { bookingBody, service, slotOfDay, slotTime } from "./seed.ts";

const BUSINESSES = 20;
const IN_FLIGHT = 20;
const SAMPLE_EVERY = 1000;
const MB = 1024 * 1024;

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "20000" },
    seconds: { type: "string", default: "300" },
    worker: { type: "string", default: "api" },
    // `health`: GET /api/v1/health only (no D1, no calendar, no rate limiter): the API's own path.
    mix: { type: "string", default: "all" },
  },
});
const maxRequests = Number(values.requests);
const maxSeconds = Number(values.seconds);
const oneLine = values.worker === "one-line";
const healthOnly = values.mix === "health";

type Sample = { requests: number; seconds: number; rss: Record<string, number>; heapMB?: number };
type Target = { key: string; serviceId: string; slot: number };

/** Resident memory (MB) of each workerd process in the process group `pgid`, by its role. */
function workerdRss(pgid: number): Record<string, number> {
  const rows = execFileSync("ps", ["-eo", "pgid=,rss=,args="], { encoding: "utf8" }).trim().split("\n");
  const rss: Record<string, number> = {};
  for (const line of rows) {
    const [group, kb, ...args] = line.trim().split(/\s+/);
    const command = args.join(" ");
    if (Number(group) !== pgid || !/\/workerd serve/.test(command)) continue;
    // wrangler dev runs two: the proxy on the public port, and the runtime with the Worker (and its inspector).
    const role = command.includes("--inspector-addr") ? "runtime" : "proxy";
    rss[role] = (rss[role] ?? 0) + Math.round(Number(kb) / 1024);
  }
  return rss;
}

/** The API isolate's used heap (MB) after a full collection, or nothing after 30 s. */
function heapMB(inspectorPort: number): Promise<number | undefined> {
  const late = sleep(30_000, undefined, { ref: false }).then(() => {
    process.stderr.write("soak: no heap reading within 30 s\n");
    return undefined;
  });
  return Promise.race([readHeap(inspectorPort), late]);
}

/** The API isolate's used heap (MB) after a full collection, through wrangler's inspector proxy. */
async function readHeap(inspectorPort: number): Promise<number | undefined> {
  try {
    const listed = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
    const targets = listed as { webSocketDebuggerUrl: string }[];
    const url = targets[0]?.webSocketDebuggerUrl;
    if (!url) return undefined;
    // wrangler's inspector proxy takes DevTools' origins only (Node's WebSocket sends none).
    const init = { headers: { Origin: "http://localhost" } } as unknown as string[];
    const socket = new WebSocket(url, init);
    await new Promise((resolve, reject) => {
      socket.addEventListener("open", resolve, { once: true });
      socket.addEventListener("error", reject, { once: true });
    });
    let id = 0;
    const send = (method: string) =>
      new Promise<Record<string, number>>((resolve) => {
        const mine = ++id;
        const onMessage = (event: MessageEvent) => {
          const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, number> };
          if (message.id !== mine) return;
          socket.removeEventListener("message", onMessage);
          resolve(message.result ?? {});
        };
        socket.addEventListener("message", onMessage);
        socket.send(JSON.stringify({ id: mine, method, params: {} }));
      });
    // workerd answers no HeapProfiler.collectGarbage; a snapshot collects first (its chunks are dropped).
    await send("HeapProfiler.takeHeapSnapshot");
    const usage = await send("Runtime.getHeapUsage");
    socket.close();
    return usage.usedSize === undefined ? undefined : Math.round((usage.usedSize / MB) * 10) / 10;
  } catch (error) {
    process.stderr.write(`soak: no heap reading (${error instanceof Error ? error.message : String(error)})\n`);
    return undefined;
  }
}

/** A fresh state folder with every migration and `BUSINESSES` businesses (their keys returned). */
async function prepareState(state: string): Promise<string[]> {
  const keys: string[] = [];
  const rows: string[] = [];
  for (let i = 0; i < BUSINESSES; i++) {
    const account = await newBusiness(`Soak ${i}`, "test");
    rows.push(insertBusinessSql({ ...account.business, shard: i % 2 }), insertApiKeySql(account.apiKey));
    keys.push(account.plaintextKey);
  }
  const shardRows = (shard: number) => rows.filter((_, i) => Math.floor(i / 2) % 2 === shard);
  await batchLocalD1(state, {
    DB: newDatabaseStatements(rows),
    DB_0: newDatabaseStatements(shardRows(0)),
    DB_1: newDatabaseStatements(shardRows(1)),
  });
  return keys;
}

async function call(origin: string, key: string, method: string, route: string, body?: string) {
  const response = await fetch(`${origin}${route}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body,
  });
  const text = await response.text();
  return { status: response.status, text };
}

/** The i-th request of the mix: bookings list, services list, one day's availability, a create. */
function nextRequest(i: number, targets: Target[]): { key: string; method: string; route: string; body?: string } {
  const target = targets[i % targets.length] as Target;
  const kind = Math.floor(i / targets.length) % 4;
  if (kind === 0) return { key: target.key, method: "GET", route: "/api/v1/bookings?limit=20" };
  if (kind === 1) return { key: target.key, method: "GET", route: "/api/v1/services?limit=20" };
  if (kind === 2) {
    const day = `from=${slotTime(slotOfDay(3))}&to=${slotTime(slotOfDay(4))}`;
    return { key: target.key, method: "GET", route: `/api/v1/services/${target.serviceId}/availability?${day}` };
  }
  return {
    key: target.key,
    method: "POST",
    route: "/api/v1/bookings",
    body: bookingBody(target.serviceId, target.slot++),
  };
}

async function soak(origin: string, targets: Target[], pgid: number, inspectorPort: number): Promise<Sample[]> {
  const started = performance.now();
  const samples: Sample[] = [];
  const statuses = new Map<number, number>();
  let sent = 0;
  let done = 0;
  let nextSample = 0;
  const elapsed = () => (performance.now() - started) / 1000;
  // A heap snapshot passes through wrangler's inspector proxy and swells that process: the heap is
  // read only before the load and after it (`final`), after that reading of resident memory.
  const sample = async (final = false) => {
    const rss = workerdRss(pgid);
    const heap = samples.length === 0 || final ? await heapMB(inspectorPort) : undefined;
    samples.push({ requests: done, seconds: Math.round(elapsed()), rss, heapMB: heap });
    const last = samples.at(-1) as Sample;
    process.stderr.write(
      `soak: ${done} requests, ${last.seconds} s, RSS ${JSON.stringify(last.rss)} MB, heap ${last.heapMB} MB\n`,
    );
  };
  await sample();
  nextSample = SAMPLE_EVERY;
  let sampling: Promise<void> | undefined;
  const worker = async () => {
    while (sent < maxRequests && elapsed() < maxSeconds) {
      const i = sent++;
      const request = oneLine
        ? { key: "", method: "GET", route: "/" }
        : healthOnly
          ? { key: "", method: "GET", route: "/api/v1/health" }
          : nextRequest(i, targets);
      try {
        const { status } = await call(origin, request.key, request.method, request.route, request.body);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      } catch {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
      }
      done++;
      if (done >= nextSample) {
        nextSample += SAMPLE_EVERY;
        sampling = (sampling ?? Promise.resolve()).then(() => sample());
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  await sampling;
  await sample(true);
  process.stderr.write(
    `soak: statuses ${JSON.stringify(Object.fromEntries(statuses))} in ${Math.round(elapsed())} s\n`,
  );
  return samples;
}

/** `wrangler dev` serving a one-line Worker (no bindings) from a folder of its own. */
function startOneLine(port: number, state: string, inspectorPort: number) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "soak-one-line-"));
  writeFileSync(path.join(dir, "index.js"), 'export default { fetch: () => new Response("ok") };\n');
  writeFileSync(
    path.join(dir, "wrangler.toml"),
    'name = "one-line"\nmain = "index.js"\ncompatibility_date = "2026-10-20"\n',
  );
  const child = spawnWrangler(
    [
      "dev",
      "--config",
      path.join(dir, "wrangler.toml"),
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--persist-to",
      state,
      "--inspector-port",
      String(inspectorPort),
    ],
    { detached: true, stdio: "ignore" },
  );
  return { pgid: child.pid as number, dir };
}

async function waitForAnswer(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.body?.cancel();
      if (response.ok) return;
    } catch {}
    await sleep(200);
  }
  throw new Error(`${url} did not answer in ${timeoutMs / 1000} s`);
}

/** The table and the growth rates, on stdout and in bench/out/soak-dev-<worker>.md (git-ignored). */
function report(samples: Sample[]): void {
  const lines: string[] = [];
  const console = { log: (line: string) => lines.push(line) };
  const roles = [...new Set(samples.flatMap((s) => Object.keys(s.rss)))].sort();
  console.log(`| requests | seconds | ${roles.map((r) => `${r} RSS (MB)`).join(" | ")} | API heap (MB) |`);
  console.log(`|---:|---:|${roles.map(() => "---:|").join("")}---:|`);
  for (const s of samples)
    console.log(
      `| ${s.requests} | ${s.seconds} | ${roles.map((r) => s.rss[r] ?? "").join(" | ")} | ${s.heapMB ?? ""} |`,
    );
  const total = (s: Sample) => Object.values(s.rss).reduce((a, b) => a + b, 0);
  const first = samples[0] as Sample;
  const last = samples.at(-1) as Sample;
  const mid = samples[Math.floor(samples.length / 2)] as Sample;
  const rate = (a: Sample, b: Sample) =>
    Math.round(((total(b) - total(a)) / Math.max(1, b.requests - a.requests)) * 1000);
  console.log(
    `\nworkerd RSS ${total(first)} → ${total(last)} MB over ${last.requests} requests: ` +
      `${rate(first, mid)} MB per 1,000 in the first half, ${rate(mid, last)} MB per 1,000 in the second`,
  );
  const text = `${lines.join("\n")}\n`;
  const out = path.join(import.meta.dirname, "..", "..", "bench", "out");
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, `soak-dev-${oneLine ? "one-line" : `api-${values.mix}`}.md`), text);
  process.stdout.write(text);
}

async function main(): Promise<void> {
  const state = mkdtempSync(path.join(os.tmpdir(), "soak-dev-"));
  const port = await freePort();
  const inspectorPort = await freePort();
  let pgid: number | undefined;
  let oneLineDir: string | undefined;
  const stop = async () => {
    if (pgid !== undefined) await stopGroup(pgid);
    rmSync(state, { recursive: true, force: true });
    if (oneLineDir) rmSync(oneLineDir, { recursive: true, force: true });
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.on(signal, () => void stop().then(() => process.exit(130)));
  try {
    const origin = `http://127.0.0.1:${port}`;
    let targets: Target[] = [];
    if (oneLine) {
      const server = startOneLine(port, state, inspectorPort);
      pgid = server.pgid;
      oneLineDir = server.dir;
      await waitForAnswer(`${origin}/`, 120_000);
    } else {
      const keys = await prepareState(state);
      // dev.ts hands every argument on to wrangler: its inspector on a port of our own.
      const server = startDevServer(port, state, undefined, ["--inspector-port", String(inspectorPort)]);
      pgid = server.pgid;
      await waitForAnswer(`${origin}/api/v1/health`, 120_000);
      while (!/Ctrl-C stops the server/.test(server.output.text)) await sleep(250);
      for (const [i, key] of keys.entries()) {
        const created = await call(origin, key, "POST", "/api/v1/services", JSON.stringify(service(`Soak ${i}`)));
        if (created.status !== 201)
          throw new Error(`service for business ${i}: HTTP ${created.status} ${created.text}`);
        targets.push({ key, serviceId: (JSON.parse(created.text) as { id: string }).id, slot: slotOfDay(30) });
      }
    }
    targets = targets.length ? targets : [{ key: "", serviceId: "", slot: 0 }];
    report(await soak(origin, targets, pgid, inspectorPort));
  } finally {
    await stop();
  }
}

await main();
