/**
 * Members live in the directory, the audit on the business's shard. A member's change writes its
 * record in the directory's own batch (the change and its record commit together), and this moves
 * it to the shard right after; a record left behind by a reset between the two is moved by the
 * nightly pass. A record keeps its id, so moving one twice writes it once.
 */
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { auditEvents } from "../db/schema";

/** Records moved per call: each is its own statement (D1 binds at most 100 values in one). */
const PER_CALL = 50;

/**
 * Moves up to 50 of the directory's records to `shard`: of one business, or (nightly) of every
 * business on it (`onShard`). Answers how many moved.
 */
export async function forwardAudit(
  directory: Database,
  shard: Database,
  of: { businessId: string } | { onShard: number },
): Promise<number> {
  const which =
    "businessId" in of
      ? eq(auditEvents.businessId, of.businessId)
      : sql`${auditEvents.businessId} IN (SELECT id FROM businesses WHERE shard = ${of.onShard})`;
  const rows = await directory.select().from(auditEvents).where(which).orderBy(asc(auditEvents.id)).limit(PER_CALL);
  const [first, ...rest] = rows.map((row) => shard.insert(auditEvents).values(row).onConflictDoNothing());
  if (!first) return 0;
  await shard.batch([first, ...rest]);
  await directory.delete(auditEvents).where(
    inArray(
      auditEvents.id,
      rows.map((row) => row.id),
    ),
  );
  return rows.length;
}
