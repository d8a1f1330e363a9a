/**
 * The kept counts behind `pagination.total`: exact after concurrent creates, status changes,
 * reschedules, customer edits and erasure, and imports — every total the lists answer equals the
 * rows they list, and the recount of GET /internal/reconcile finds no drift. A count changed
 * behind the triggers' back is reported as drift.
 */
import { exports } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { listCounts } from "../../src/db/schema";
import { recountLists } from "../../src/lists/counts";
import { api, createAccount, createService, db, json } from "../support/api";
import { at, book, bookingBody, plus } from "../support/bookings";
import { walkAfter } from "../support/lists";

const admin = (path: string, init: RequestInit = {}) =>
  exports.default.fetch(
    new Request(`http://api.test/internal${path}`, {
      ...init,
      headers: { "Content-Type": "application/json", Authorization: "Bearer test-admin-token" },
    }),
  );

/** Every kept total the lists answer for this business equals the rows they list. */
async function expectExact(key: string, filters: string[]) {
  for (const filter of ["", ...filters]) {
    const path = `/bookings${filter ? `?${filter}` : ""}`;
    const ids = await walkAfter(key, path, 100);
    const total = (await json(await api("GET", `${path}${filter ? "&" : "?"}limit=1`, { key }))).pagination.total;
    expect(total, path).toBe(ids.length);
  }
  const customers = await walkAfter(key, "/customers", 100);
  expect((await json(await api("GET", "/customers?limit=1", { key }))).pagination.total).toBe(customers.length);
}

describe("kept counts", () => {
  it("stay exact under concurrent creates, status changes, reschedules, customer edits, erasure and an import", async () => {
    const { businessId, apiKey } = await createAccount();
    const [one, two] = [await createService(apiKey), await createService(apiKey)];
    const emails = ["ada@example.com", "grace@example.com", "alan@example.com"];
    // 24 concurrent creates over two services and three customers.
    const created = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        book(
          apiKey,
          bookingBody(
            i % 2 ? one.id : two.id,
            at(3 + Math.floor(i / 8), `${String(9 + (i % 8)).padStart(2, "0")}:00`),
            {
              customerEmail: emails[i % 3],
            },
          ),
        ),
      ),
    );
    // Concurrent status changes, some of them twice over (the second is refused or a no-op).
    await Promise.all(
      created.slice(0, 10).flatMap((b, i) => {
        const status = i % 2 ? "CANCELLED" : "COMPLETED";
        const body = status === "CANCELLED" ? { status, cancellationReason: "Ill." } : { status };
        return [0, 1].map(() => api("PATCH", `/bookings/${b.id}`, { key: apiKey, body }));
      }),
    );
    for (const b of created.slice(12, 15)) {
      const startTime = at(10, `${String(9 + created.indexOf(b) - 12).padStart(2, "0")}:00`);
      const res = await api("POST", `/bookings/${b.id}/reschedule`, {
        key: apiKey,
        body: { startTime, endTime: plus(startTime, 30) },
      });
      expect(res.status).toBe(200);
    }
    const customers = (await json(await api("GET", "/customers", { key: apiKey }))).data as {
      id: string;
      email: string;
    }[];
    const grace = customers.find((c) => c.email === "grace@example.com");
    const alan = customers.find((c) => c.email === "alan@example.com");
    expect(
      (await api("PATCH", `/customers/${grace?.id}`, { key: apiKey, body: { email: "g@example.com" } })).status,
    ).toBe(200);
    expect((await api("DELETE", `/customers/${alan?.id}`, { key: apiKey })).status).toBe(204);
    const draft = (startTime: string) => {
      const { serviceId: _s, ...body } = bookingBody("unused", startTime, { customerEmail: "alan@example.com" });
      return body;
    };
    const imported = await admin(`/services/${one.id}/import`, {
      method: "POST",
      body: JSON.stringify({ bookings: [draft(at(12, "09:00")), draft(at(12, "10:00"))] }),
    });
    expect(imported.status).toBe(200);

    const ids = customers.map((c) => c.id);
    await expectExact(apiKey, [
      "status=CONFIRMED",
      "status=CANCELLED",
      "status=COMPLETED",
      `serviceId=${one.id}`,
      `serviceId=${two.id}`,
      ...ids.map((id) => `customerId=${id}`),
    ]);
    expect(await recountLists(db(), businessId)).toEqual([]);
    const report = await json(await admin("/reconcile"));
    expect(report.counts.drift.filter((d: { businessId: string }) => d.businessId === businessId)).toEqual([]);
  });

  it("a count changed behind the triggers is reported as drift by the recount and the reconciliation", async () => {
    const { businessId, apiKey } = await createAccount();
    const service = await createService(apiKey);
    await book(apiKey, bookingBody(service.id, at(3, "09:00")));
    await db()
      .update(listCounts)
      .set({ n: 5 })
      .where(and(eq(listCounts.businessId, businessId), eq(listCounts.dimension, "bookings")));
    expect(await recountLists(db(), businessId)).toEqual([
      { businessId, dimension: "bookings", value: "", kept: 5, actual: 1 },
    ]);
    const report = await json(await admin("/reconcile"));
    expect(report.consistent).toBe(false);
    expect(report.counts.drift).toContainEqual({ businessId, dimension: "bookings", value: "", kept: 5, actual: 1 });
    // Put it back: other tests in this file share the database.
    await db()
      .update(listCounts)
      .set({ n: 1 })
      .where(and(eq(listCounts.businessId, businessId), eq(listCounts.dimension, "bookings")));
  });
});
