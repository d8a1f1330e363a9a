/**
 * `npm run bench -- --scale [10000,100000,1000000]`: the lists as one business's data grows.
 * Seeds straight into the bench's local D1 (`seedBookingsSql`: one INSERT … SELECT over a
 * recursive series per 100,000 rows, the triggers keeping the counts and the search index as
 * they do for the API's writes), then loads page 1, a cursor page 90 % deep, the status-filtered
 * list, a customer search and a deep page by number at each size, and prints req/s, p50, p99 and
 * the rows D1 read per request (from the request log). Before the rows, the floor: a one-line
 * Worker without the static-assets router, and `/health`.
 */
import { runScenario } from "./load.ts";
import { service as serviceBody } from "./seed.ts";
import { startBenchServer, startCalibrationServer } from "./server.ts";

/** The first seeded appointment (2026-12-24) and the step between two, in seconds. */
const FIRST_START = 1_798_000_000;
const STEP_S = 900;
const CHUNK = 100_000;

const bookingId = (i: number) => `bkg_seed${String(i).padStart(8, "0")}`;
const startOf = (i: number) => new Date((FIRST_START + i * STEP_S) * 1000).toISOString();

/**
 * One statement that stores bookings `from` … `from + count − 1` of a business: 15-minute steps,
 * every tenth cancelled and every tenth completed. The same SQL runs under `wrangler d1 execute
 * DB_0 --local --command` against `npm run dev`'s state (the demo business is on shard 0).
 */
export function seedBookingsSql(from: number, count: number): string {
  return `WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${from + count - 1})
    INSERT INTO bookings (id, business_id, service_id, customer_id, customer_name, customer_email, start_time,
      end_time, status, version, created_at, updated_at)
    SELECT printf('bkg_seed%08d', i), ?1, ?2, ?3, 'Ada Lovelace', 'ada@example.com',
      strftime('%Y-%m-%dT%H:%M:%S.000Z', ${FIRST_START} + i * ${STEP_S}, 'unixepoch'),
      strftime('%Y-%m-%dT%H:%M:%S.000Z', ${FIRST_START} + i * ${STEP_S} + 600, 'unixepoch'),
      CASE i % 10 WHEN 0 THEN 'CANCELLED' WHEN 1 THEN 'COMPLETED' ELSE 'CONFIRMED' END,
      1, '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z' FROM n`;
}

/** One statement that stores customers `Person <i>` / `person<i>@example.com`, i from 0. */
export function seedCustomersSql(count: number): string {
  return `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${count - 1})
    INSERT INTO customers (id, business_id, name, email, email_normalized, name_normalized, created_at, updated_at)
    SELECT printf('cus_seed%08d', i), ?1, printf('Person %d', i), printf('person%d@example.com', i),
      printf('person%d@example.com', i), printf('person %d', i), '2026-11-01T00:00:00.000Z',
      '2026-11-01T00:00:00.000Z' FROM n`;
}

/** The `after` cursor of seeded booking `i` (base64url of its start and id, as the API issues). */
const cursorOf = (i: number) => Buffer.from(JSON.stringify([startOf(i), bookingId(i)])).toString("base64url");

export type ScaleRow = { bookings: number; name: string; rps: number; p50: number; p99: number; rowsRead?: number };

export async function scale(options: { sizes: number[]; seconds: number; customers: number }) {
  const log = (msg: string) => process.stderr.write(`${msg}\n`);
  const bare = await startCalibrationServer({ assets: false });
  const server = await startBenchServer();
  const rows: ScaleRow[] = [];
  try {
    const measure = async (bookings: number, name: string, url: string, path: string, key?: string) => {
      log(`bench --scale: ${bookings} bookings, ${name}`);
      server.rowsRead.reset();
      const r = await runScenario(name, {
        url,
        apiKey: key,
        seconds: options.seconds,
        connections: 10,
        request: { path },
      });
      const row = { bookings, name, rps: r.rps, p50: r.p50, p99: r.p99, rowsRead: server.rowsRead.perRequest() };
      rows.push(row);
      return row;
    };
    const floor = await measure(0, "one-line Worker, no assets router (the floor)", bare.url, "/api/v1/health");
    const health = await measure(0, "GET /health", server.url, "/api/v1/health");

    const key = await server.createAccount("Scale Salon");
    const call = async (path: string, body: unknown) => {
      const res = await fetch(`${server.url}/api/v1${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return (await res.json()) as { id: string };
    };
    const service = await call("/services", serviceBody("Scale"));
    const customer = await call("/customers", { name: "Ada Lovelace", email: "ada@example.com" });
    const owner = server.businessOf(key);
    let t = performance.now();
    await server.execute(seedCustomersSql(options.customers), owner);
    log(`bench --scale: seeded ${options.customers} customers in ${Math.round(performance.now() - t)} ms`);

    let seeded = 0;
    for (const size of options.sizes) {
      t = performance.now();
      for (; seeded < size; seeded += Math.min(CHUNK, size - seeded)) {
        await server.execute(seedBookingsSql(seeded, Math.min(CHUNK, size - seeded)), owner, service.id, customer.id);
      }
      log(`bench --scale: ${size} bookings seeded (${Math.round(performance.now() - t)} ms for this step)`);
      const deep = Math.floor(size * 0.1);
      await measure(size, "GET /bookings?limit=20", server.url, "/api/v1/bookings?limit=20", key);
      await measure(
        size,
        "cursor page 90 % deep",
        server.url,
        `/api/v1/bookings?limit=20&after=${cursorOf(deep)}`,
        key,
      );
      await measure(size, "status=CANCELLED", server.url, "/api/v1/bookings?limit=20&status=CANCELLED", key);
      await measure(size, "customer search", server.url, "/api/v1/customers?limit=20&search=person%204242", key);
      await measure(size, "page=501 (skips 10,000)", server.url, "/api/v1/bookings?limit=20&page=501", key);
    }
    return { rows, healthOverFloor: Math.round((health.rps / floor.rps) * 100) / 100 };
  } finally {
    await server.dispose();
    await bare.dispose();
  }
}
