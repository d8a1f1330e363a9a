import { and, eq, type SQL, sql } from "drizzle-orm";
import { fieldsOf, recordIfChanged } from "../audit/record";
import type { Database } from "../db/client";
import { providers } from "../db/schema";
import { ifMatchCondition, nothingWritten } from "../lib/rows";
import type { Actor } from "../types/actor";
import { configureProviderCalendar, loadProvider, type ProviderFields, toProvider } from "./records";

/**
 * Replaces the given settings of the business's provider (with If-Match tags, only if it still
 * has one of them: else 412), then pushes them to the provider's calendar before answering, so
 * no new booking is decided against the old ones. Answers the provider and its new version.
 */
export async function editProvider(
  env: Env,
  db: Database,
  businessId: string,
  id: string,
  changes: Partial<ProviderFields>,
  ifMatch: string[] | undefined,
  actor: Actor,
) {
  let unchangedSince: SQL | undefined;
  if (ifMatch !== undefined) {
    // Check the tag, then write only if nothing changed in between (compare-and-set on version).
    const current = await loadProvider(db, businessId, id);
    unchangedSince = ifMatchCondition(ifMatch, providers.version, current.version);
  }
  const [[row]] = await db.batch([
    db
      .update(providers)
      .set({ ...changes, version: sql`${providers.version} + 1`, updatedAt: new Date().toISOString() })
      .where(and(eq(providers.businessId, businessId), eq(providers.id, id), unchangedSince))
      .returning(),
    recordIfChanged(db, {
      businessId,
      actor,
      action: "provider.updated",
      resource: { type: "provider", id },
      fields: fieldsOf(changes),
    }),
  ]);
  if (!row) throw nothingWritten("provider", id, ifMatch);
  await configureProviderCalendar(env, row);
  return { provider: toProvider(row), version: row.version };
}
