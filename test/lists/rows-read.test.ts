/**
 * The rows D1 reads per list request stay bounded as the data grows: with 100,000 bookings and
 * 100,000 customers in one business (put straight into D1 by one SQL statement each, the triggers
 * keeping counts and the search index), page 1, a cursor page deep in the data, the
 * status-filtered list and a customer search each read at most 200 rows (D1's `meta.rows_read`,
 * summed over the statements of the list's batch, measured on the very statements the routes
 * run). A deep `page=N` is measured too: it reads every row it skips, which docs/performance.md
 * states as its cost.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { bookingPage } from "../../src/bookings/list";
import { customerPage } from "../../src/customers/records";
import { readBatch } from "../../src/db/prepared";
import { cursorOf } from "../../src/lists/cursor";
import { createAccount, createCustomer, createService, db } from "../support/api";

const BOOKINGS = 100_000;
const CUSTOMERS = 100_000;
const BOUND = 200;

/** A reader that runs a list's batch as the routes do and adds up the rows D1 read for it. */
function measuring() {
  const counter = { rowsRead: 0 };
  const d1 = {
    prepare: (sql: string) => env.DB_0.prepare(sql),
    batch: async (statements: D1PreparedStatement[]) => {
      const results = await env.DB_0.batch(statements);
      for (const result of results) counter.rowsRead += result.meta.rows_read;
      return results;
    },
  } as unknown as D1Database;
  return { counter, read: ((reads: never) => readBatch(d1, reads)) as unknown as Parameters<typeof bookingPage>[1] };
}

let businessId = "";
let serviceId = "";

beforeAll(async () => {
  const account = await createAccount();
  businessId = account.businessId;
  const service = await createService(account.apiKey);
  serviceId = service.id;
  const customer = await createCustomer(account.apiKey);
  // One statement each: a recursive series, one row per number, every trigger firing per row.
  await env.DB_0.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?4 - 1)
     INSERT INTO bookings (id, business_id, service_id, customer_id, customer_name, customer_email, start_time,
       end_time, status, version, created_at, updated_at)
     SELECT printf('bkg_seed%08d', i), ?1, ?2, ?3, 'Ada Lovelace', 'ada@example.com',
       strftime('%Y-%m-%dT%H:%M:%S.000Z', 1798000000 + i * 900, 'unixepoch'),
       strftime('%Y-%m-%dT%H:%M:%S.000Z', 1798000000 + i * 900 + 600, 'unixepoch'),
       CASE i % 10 WHEN 0 THEN 'CANCELLED' WHEN 1 THEN 'COMPLETED' ELSE 'CONFIRMED' END,
       1, '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z' FROM n`,
  )
    .bind(businessId, serviceId, customer.id, BOOKINGS)
    .run();
  await env.DB_0.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?2 - 1)
     INSERT INTO customers (id, business_id, name, email, email_normalized, name_normalized, created_at, updated_at)
     SELECT printf('cus_seed%08d', i), ?1, printf('Person %d', i), printf('person%d@example.com', i),
       printf('person%d@example.com', i), printf('person %d', i), '2026-11-01T00:00:00.000Z',
       '2026-11-01T00:00:00.000Z' FROM n`,
  )
    .bind(businessId, CUSTOMERS)
    .run();
}, 120_000);

const pageRequest = { page: 1, limit: 20 };

describe("rows read per list request, 100,000 bookings and customers", () => {
  it("page 1 of the bookings, with its kept total", async () => {
    const { counter, read } = measuring();
    const list = await bookingPage(db(), read, businessId, pageRequest);
    expect(list.items).toHaveLength(20);
    expect(list.total).toBe(BOOKINGS + 0);
    expect(counter.rowsRead).toBeLessThanOrEqual(BOUND);
  });

  it("a cursor page 90,000 rows deep, both ways", async () => {
    const deep = (await env.DB_0.prepare(
      "SELECT start_time, id FROM bookings WHERE business_id = ? ORDER BY start_time DESC, id DESC LIMIT 1 OFFSET 90000",
    )
      .bind(businessId)
      .first()) as { start_time: string; id: string };
    for (const direction of ["after", "before"] as const) {
      const { counter, read } = measuring();
      const cursor = cursorOf([deep.start_time, deep.id]);
      const list = await bookingPage(db(), read, businessId, { ...pageRequest, [direction]: cursor });
      expect(list.items).toHaveLength(20);
      expect(counter.rowsRead, direction).toBeLessThanOrEqual(BOUND);
    }
  });

  it("the status-filtered list and the service-filtered list", async () => {
    for (const filter of [{ status: "CANCELLED" as const }, { serviceId }]) {
      const { counter, read } = measuring();
      const list = await bookingPage(db(), read, businessId, { ...pageRequest, ...filter });
      expect(list.items).toHaveLength(20);
      expect(list.total).toBe("status" in filter ? BOOKINGS / 10 : BOOKINGS);
      expect(counter.rowsRead, JSON.stringify(filter)).toBeLessThanOrEqual(BOUND);
    }
  });

  it("customer search by name and by e-mail, and the customers' page 1", async () => {
    for (const search of ["person 4242", "person4242@", "Person 99999"]) {
      const { counter, read } = measuring();
      const list = await customerPage(db(), read, businessId, { ...pageRequest, search });
      expect(list.items.length, search).toBeGreaterThan(0);
      expect(counter.rowsRead, search).toBeLessThanOrEqual(BOUND);
    }
    const { counter, read } = measuring();
    const list = await customerPage(db(), read, businessId, pageRequest);
    expect(list.total).toBe(CUSTOMERS + 1);
    expect(counter.rowsRead).toBeLessThanOrEqual(BOUND);
  });

  it("a deep page by number reads the rows it skips (its documented cost)", async () => {
    const { counter, read } = measuring();
    await bookingPage(db(), read, businessId, { page: 501, limit: 20 });
    expect(counter.rowsRead).toBeGreaterThan(10_000);
    expect(counter.rowsRead).toBeLessThan(10_000 + BOUND);
  });
});
