/**
 * `npm run bench -- --moves [1000,10000]`: a business moved from shard 0 to shard 1 as its data
 * grows. For each size a fresh business gets that many bookings (seeded straight into shard 0, the
 * triggers keeping its counts as the API's writes do) and a thousand customers; the move is
 * started through the operator route with no grace period and followed until done. Prints the
 * rows moved, how long the business's writes were held (from the hold until its calendars were
 * released, by the move's own record) and the whole move took, and rows per second. Every D1 database here is a local SQLite file: the
 * numbers say how the move's cost grows with the data, not how long a move takes on Cloudflare.
 */
import { seedBookingsSql, seedCustomersSql } from "./scale.ts";
import { service as serviceBody } from "./seed.ts";
import { BENCH_ADMIN_TOKEN, startBenchServer } from "./server.ts";

export type RelocationRow = {
  bookings: number;
  /** Bookings of another business on the old shard that stays (the move reads past them). */
  beside: number;
  rows: number;
  heldMs: number;
  totalMs: number;
  rowsPerSecond: number;
};

const CUSTOMERS = 1_000;

/**
 * Each size moved alone on shard 0, then the smallest again beside a business with the largest
 * number of bookings that stays: the pages read in rowid order, past the other business's rows.
 */
export async function moves(sizes: number[]): Promise<RelocationRow[]> {
  const log = (msg: string) => process.stderr.write(`${msg}\n`);
  const server = await startBenchServer();
  const rows: RelocationRow[] = [];
  let seeded = 0;
  const largest = Math.max(...sizes);
  const runs = [...sizes.map((size) => ({ size, beside: 0 })), { size: Math.min(...sizes), beside: largest }];
  try {
    for (const { size, beside } of runs) {
      if (beside > 0) {
        // The business that stays: seeded first, so the moving one's rows come after its rows.
        const stays = await server.createAccount("Staying");
        const post = (path: string, body: unknown) =>
          fetch(`${server.url}/api/v1${path}`, {
            method: "POST",
            headers: { authorization: `Bearer ${stays}`, "content-type": "application/json" },
            body: JSON.stringify(body),
          }).then((res) => res.json() as Promise<{ id: string }>);
        const service = await post("/services", serviceBody("Staying"));
        const customer = await post("/customers", { name: "Ada Lovelace", email: "ada@example.com" });
        for (let done = 0; done < beside; done += Math.min(100_000, beside - done)) {
          const count = Math.min(100_000, beside - done);
          await server.execute(
            seedBookingsSql(seeded + done, count),
            server.businessOf(stays),
            service.id,
            customer.id,
          );
        }
        seeded += beside;
      }
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
      await server.execute(seedCustomersSql(CUSTOMERS).replaceAll("cus_seed", `cus_s${size}_${beside}_`), owner);
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
      const started = await post(
        `/internal/businesses/${owner}/relocation`,
        { shard: 1, graceSeconds: 0 },
        `Bearer ${BENCH_ADMIN_TOKEN}`,
      );
      if (started.status !== 202) throw new Error(`The move did not start: ${JSON.stringify(started.body)}`);
      let move: { step: string; startedAt: string; heldAt: string; releasedAt: string; finishedAt: string };
      do {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const res = await fetch(`${server.url}/internal/businesses/${owner}/relocation`, {
          headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
        });
        move = await res.json();
      } while (move.step !== "done");
      // The move's own clock: held from the hold to the calendars' release, done when the old rows are gone.
      const totalMs = Date.parse(move.finishedAt) - Date.parse(move.startedAt);
      rows.push({
        bookings: size,
        beside,
        rows: moved,
        heldMs: Date.parse(move.releasedAt) - Date.parse(move.heldAt),
        totalMs,
        rowsPerSecond: Math.round(moved / (totalMs / 1000)),
      });
    }
  } finally {
    await server.dispose();
  }
  return rows;
}
