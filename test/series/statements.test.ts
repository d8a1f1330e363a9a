/**
 * What a 52-occurrence series costs in D1 statements, the request's own and its calendar's
 * write-behind (which writes every booking, with its customer, people and events): counted, never
 * timed, with every row checked as it must be. docs/performance.md, "Series: D1 statements".
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { d1Writer } from "../../src/calendar/d1/persist";
import { json, origin } from "../support/api";
import { at, calendarStub, d1Bookings } from "../support/bookings";
import { countingD1, type StatementCount } from "../support/d1-count";
import { injectFaults } from "../support/faults";
import { clinic, seriesBody } from "../support/series";

const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;

/**
 * Statements a 52-occurrence series may cost at most: the request's own, and the write-behind's —
 * per booking its row, per event 5 (its audit record, the event, its deliveries, its message, what it sends), per
 * batch of at most 50 bookings 6 (the customer once, the customers read back, people and rooms
 * rebuilt). It was 624: a customer upsert, a read-back and 4 assignment statements per booking, 5 per event.
 */
const REQUEST_MOST = 7;
const WRITES_MOST = 52 * (1 + 5) + 2 * 6;

describe("a weekly series of 52 occurrences", () => {
  it("costs a bounded number of D1 statements, and writes every booking with its customer and person", async () => {
    const c = await clinic();
    const stub = calendarStub(c.businessId, c.physio);
    const writes: StatementCount = { statements: 0, trips: 0 };
    await injectFaults(stub, {
      writeToD1: (records, events) => d1Writer(countingD1(env.DB_0, writes))(records, events),
    });
    const request: StatementCount = { statements: 0, trips: 0 };
    const counted = { ...env, DB: countingD1(env.DB, request), DB_0: countingD1(env.DB_0, request) } as Env;
    const body = seriesBody(c.physio, at(2, "10:00"), "FREQ=WEEKLY;COUNT=52");
    const res = await app.fetch(
      new Request(`${origin}/api/v1/series`, {
        method: "POST",
        headers: { Authorization: `Bearer ${c.apiKey}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      }),
      counted,
      ctx,
    );
    expect(res.status).toBe(201);
    expect((await json(res)).bookings).toHaveLength(52);
    // A batch carries at most 50 bookings: the alarm writes the rest.
    await runDurableObjectAlarm(stub);
    await injectFaults(stub, { writeToD1: undefined });
    const stored = await d1Bookings(c.businessId);
    expect(stored).toHaveLength(52);
    const customers = new Set(stored.map((b: { customerId: string | null }) => b.customerId));
    expect(customers.size).toBe(1);
    expect([...customers][0]).toMatch(/^cus_/);
    for (const b of stored) expect(b).toMatchObject({ providerId: c.therapist, customerEmail: body.customerEmail });
    const people = await env.DB_0.prepare(
      "SELECT count(*) AS n FROM booking_providers WHERE business_id = ? AND provider_id = ?",
    )
      .bind(c.businessId, c.therapist)
      .first<{ n: number }>();
    expect(people?.n).toBe(52);
    console.log(`series of 52: request ${JSON.stringify(request)}, write-behind ${JSON.stringify(writes)}`);
    expect(request.statements).toBeLessThanOrEqual(REQUEST_MOST);
    expect(writes.statements).toBeLessThanOrEqual(WRITES_MOST);
  });
});
