/** Audit records are kept 400 days: the nightly prune drops older ones, a bounded number per run. */
import { env } from "cloudflare:workers";
import { and, eq, lt } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { pruneAudit } from "../../src/audit/prune";
import { auditRow } from "../../src/audit/record";
import { auditEvents } from "../../src/db/schema";
import { api, createAccount, db, json } from "../support/api";

const DAY = 86_400_000;

/** Stores `n` records of the business made `daysAgo` days ago, straight into D1. */
async function storeOld(businessId: string, n: number, daysAgo: number) {
  const at = Date.now() - daysAgo * DAY;
  const rows = Array.from({ length: n }, (_, i) =>
    auditRow(
      {
        businessId,
        actor: { type: "system", id: "system" },
        action: "service.updated",
        resource: { type: "service", id: `svc_${"0".repeat(25)}${i % 10}` },
        fields: ["name"],
      },
      at + i,
    ),
  );
  for (let i = 0; i < rows.length; i += 10)
    await db()
      .insert(auditEvents)
      .values(rows.slice(i, i + 10));
}

const countOf = async (businessId: string, before?: string) =>
  (
    await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.businessId, businessId), before ? lt(auditEvents.at, before) : undefined))
  ).length;

describe("retention", () => {
  it("records older than 400 days go; a 399-day-old record and today's stay listed", async () => {
    const { businessId, apiKey } = await createAccount();
    await storeOld(businessId, 3, 401);
    await storeOld(businessId, 1, 399);
    await api("PATCH", "/business", { key: apiKey, body: { name: "Kept" } });
    await pruneAudit(env.DB_0);
    const listed = await json(await api("GET", "/audit-events", { key: apiKey }));
    expect(listed.pagination.total).toBe(2);
    expect(listed.data.map((r: { action: string }) => r.action)).toEqual(["business.updated", "service.updated"]);
  });

  it("one run drops at most its batches of 500: a backlog drains over several runs", async () => {
    const { businessId } = await createAccount();
    await storeOld(businessId, 1_100, 500);
    const cutoff = new Date(Date.now() - 400 * DAY).toISOString();
    await pruneAudit(env.DB_0, Date.now(), 2);
    expect(await countOf(businessId, cutoff)).toBeGreaterThanOrEqual(100);
    await pruneAudit(env.DB_0, Date.now(), 2);
    expect(await countOf(businessId, cutoff)).toBe(0);
  });
});
