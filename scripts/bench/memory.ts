/**
 * `npm run bench -- --memory [-- --requests N]`: does the API keep memory per request? For each
 * kind of request (health, list, availability, create) it sends 1,000 requests, forces a garbage
 * collection through workerd's inspector and reads the isolate's used heap, then sends up to N
 * (default 50,000) and reads it again; the same for the one-line calibration Worker. Also reads
 * the resident memory of the workerd processes. The Durable Objects run in the API's isolate,
 * so the create and availability rows include the calendar objects' memory.
 */
import { execFileSync } from "node:child_process";
import { connectInspector, type Inspector } from "./inspector.ts";
import { runScenario } from "./load.ts";
import { bookingBody, call, seedBookings, service, slotOfDay, slotTime } from "./seed.ts";
import { API_WORKER, FLOOR_WORKER, startBenchServer, startCalibrationServer } from "./server.ts";

const INSPECTOR_PORT = 9241;
const MB = 1024 * 1024;

type Request = { method?: string; path: string; body?: string };
type Row = {
  worker: string;
  kind: string;
  requests: number;
  heapAt1kMB: number;
  heapAtNMB: number;
  heapGrowthMB: number;
  heapPer1kKB: number;
  rssAt1kMB: number;
  rssAtNMB: number;
};

/** Resident memory (MB) of the workerd processes started by this process. */
function workerdRssMB(): number {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,rss=,comm="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .map(([pid, ppid, rss, comm]) => ({ pid: Number(pid), ppid: Number(ppid), rss: Number(rss), comm }));
  const mine = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows)
      if (mine.has(row.ppid) && !mine.has(row.pid)) {
        mine.add(row.pid);
        grew = true;
      }
  }
  const kb = rows.filter((r) => mine.has(r.pid) && r.comm?.startsWith("workerd")).reduce((sum, r) => sum + r.rss, 0);
  return Math.round(kb / 1024);
}

async function measure(
  worker: string,
  kind: string,
  url: string,
  inspector: Inspector,
  total: number,
  request: () => Request,
  apiKey?: string,
): Promise<Row> {
  const drive = (amount: number) =>
    runScenario(kind, { url, apiKey, seconds: 0, amount, connections: 10, request: () => request() });
  const warm = Math.min(1000, total);
  await drive(warm);
  const first = await inspector.heapAfterGc();
  const rss1 = workerdRssMB();
  if (total > warm) await drive(total - warm);
  const last = await inspector.heapAfterGc();
  const growth = last.usedSize - first.usedSize;
  return {
    worker,
    kind,
    requests: total,
    heapAt1kMB: Math.round((first.usedSize / MB) * 10) / 10,
    heapAtNMB: Math.round((last.usedSize / MB) * 10) / 10,
    heapGrowthMB: Math.round((growth / MB) * 10) / 10,
    heapPer1kKB: Math.round((growth / 1024 / Math.max(1, (total - warm) / 1000)) * 10) / 10,
    rssAt1kMB: rss1,
    rssAtNMB: workerdRssMB(),
  };
}

export async function memory(options: { requests: number }) {
  const total = options.requests;
  const rows: Row[] = [];
  const log = (msg: string) => process.stderr.write(`${msg}\n`);

  const floor = await startCalibrationServer({ inspectorPort: INSPECTOR_PORT });
  const floorInspector = await connectInspector(INSPECTOR_PORT, FLOOR_WORKER);
  try {
    log(`memory: one-line Worker, ${total} requests`);
    rows.push(await measure("one-line", "GET /", floor.url, floorInspector, total, () => ({ path: "/" })));
  } finally {
    floorInspector.close();
    await floor.dispose();
  }

  const server = await startBenchServer({ inspectorPort: INSPECTOR_PORT });
  const inspector = await connectInspector(INSPECTOR_PORT, API_WORKER);
  try {
    const key = await server.createAccount("Memory Salon");
    const listed = (await call(server.url, key, "POST", "/services", service("Listed"))).body.id;
    await seedBookings(server.url, listed, 0, 2_000);
    let slot = slotOfDay(30);
    const day = `from=${slotTime(slotOfDay(3))}&to=${slotTime(slotOfDay(4))}`;
    const kinds: [string, () => Request][] = [
      ["GET /health", () => ({ path: "/api/v1/health" })],
      ["GET /bookings?limit=20", () => ({ path: "/api/v1/bookings?limit=20" })],
      ["GET availability 1 day", () => ({ path: `/api/v1/services/${listed}/availability?${day}` })],
      ["POST /bookings", () => ({ method: "POST", path: "/api/v1/bookings", body: bookingBody(listed, slot++) })],
    ];
    for (const [kind, request] of kinds) {
      log(`memory: ${kind}, ${total} requests`);
      rows.push(await measure("API", kind, server.url, inspector, total, request, key));
    }
  } finally {
    inspector.close();
    await server.dispose();
  }

  console.log(
    "| worker | requests | heap after 1,000 (MB) | heap after N (MB) | growth (MB) | per 1,000 (KB) | workerd RSS after 1,000 → N (MB) |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---|");
  for (const r of rows)
    console.log(
      `| ${r.worker} ${r.kind} | ${r.requests} | ${r.heapAt1kMB} | ${r.heapAtNMB} | ${r.heapGrowthMB} | ${r.heapPer1kKB} | ${r.rssAt1kMB} → ${r.rssAtNMB} |`,
    );
  const flat = rows.filter((r) => r.worker === "API").every((r) => r.heapGrowthMB <= 10);
  console.log(
    `\ntarget: API heap after ${total} within 10 MB of the heap after 1,000, every kind: ${flat ? "yes" : "NO"}`,
  );
}
