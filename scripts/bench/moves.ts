/**
 * `npm run bench -- --moves [1000,10000]`: a business moved from shard 0 to shard 1 as its data
 * grows. For each size a fresh business gets that many bookings (seeded straight into shard 0, the
 * triggers keeping its counts as the API's writes do) and a thousand customers; the move is
 * started through the operator route with no grace period and followed every 50 ms. Prints the
 * rows moved, how long the business's writes were held (until its calendars were released) and
 * the whole move took, and rows per second. Every D1 database here is a local SQLite file: the
 * numbers say how the move's cost grows with the data, not how long a move takes on Cloudflare.
 */
import { seedBookingsSql, seedCustomersSql } from "./scale.ts";
import { service as serviceBody } from "./seed.ts";
import { BENCH_ADMIN_TOKEN, startBenchServer } from "./server.ts";

export type MoveRow = { bookings: number; rows: number; heldMs: number; totalMs: number; rowsPerSecond: number };

const CUSTOMERS = 1_000;

export async function moves(sizes: number[]): Promise<MoveRow[]> {
  const log = (msg: string) => process.stderr.write(`${msg}\n`);
  const server = await startBenchServer();
  const rows: MoveRow[] = [];
  let seeded = 0;
  try {
    for (const size of sizes) {
      const key = await server.createAccount(`Moving ${size}`);
      const owner = server.businessOf(key);
      const post = async (path: string, body: unknown, auth = `Bearer ${key}`) => {
        const res = await fetch(`${server.url}${path}`, {
          method: "POST",
          headers: { authorization: auth, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      const service = (await post("/api/v1/services", serviceBody(`Moving ${size}`))).body;
      const customer = (await post("/api/v1/customers", { name: "Ada Lovelace", email: "ada@example.com" })).body;
      await server.execute(seedCustomersSql(CUSTOMERS).replaceAll("cus_seed", `cus_s${size}_`), owner);
      for (let done = 0; done < size; done += Math.min(100_000, size - done)) {
        await server.execute(
          seedBookingsSql(seeded + done, Math.min(100_000, size - done)),
          owner,
          service.id,
          customer.id,
        );
      }
      seeded += size;
      const moved = await server.count(
        `SELECT (SELECT count(*) FROM bookings WHERE business_id = ?1) + (SELECT count(*) FROM customers WHERE business_id = ?1)
          + (SELECT count(*) FROM list_counts WHERE business_id = ?1) + 4 AS n`,
        owner,
      );
      log(`bench --moves: ${size} bookings seeded; moving about ${moved} rows`);
      const start = performance.now();
      const started = await post(
        `/internal/accounts/${owner}/move`,
        { shard: 1, graceSeconds: 0 },
        `Bearer ${BENCH_ADMIN_TOKEN}`,
      );
      if (started.status !== 202) throw new Error(`The move did not start: ${JSON.stringify(started.body)}`);
      let heldMs = 0;
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const res = await fetch(`${server.url}/internal/accounts/${owner}/move`, {
          headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
        });
        const move = (await res.json()) as { step: string };
        if (heldMs === 0 && (move.step === "delete" || move.step === "done")) heldMs = performance.now() - start;
        if (move.step === "done") break;
      }
      const totalMs = performance.now() - start;
      rows.push({
        bookings: size,
        rows: moved,
        heldMs: Math.round(heldMs),
        totalMs: Math.round(totalMs),
        rowsPerSecond: Math.round(moved / (totalMs / 1000)),
      });
    }
  } finally {
    await server.dispose();
  }
  return rows;
}
