/**
 * Audit records of changes that live in a calendar object only (a person connecting or
 * disconnecting their own calendars, an entry leaving a service's waitlist): kept in the change's
 * own transaction, then written to D1 — at once by the request that made the change, and by the
 * object's alarm until D1 has them. A reset between the change
 * and its record loses neither; each record's id is fixed when the change is made, so writing it
 * twice records it once. Every method but `writeDueAudit` runs inside the caller's transaction.
 */
import { type AuditRow, auditRow, changeAuditId, writeRecords } from "../audit/record";
import { createDb } from "../db/client";
import { errorText } from "../lib/api-error";
import type { Author } from "../types/actor";
import { retryDelayMs } from "./alarm-clock";

/** The table, added to a calendar kind's migrations. */
export const auditOutboxMigration = `CREATE TABLE audit_outbox (
     id TEXT PRIMARY KEY,
     row TEXT NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_ms INTEGER NOT NULL,
     last_error TEXT
   );`;

/** Records written to D1 per alarm run at most (the rest stay due). */
const BATCH = 50;

export class AuditOutbox {
  constructor(private readonly sql: SqlStorage) {}

  /** Keeps a record until D1 has it, inside the change's transaction. */
  keep(row: AuditRow, now: number): void {
    this.sql.exec(
      "INSERT OR IGNORE INTO audit_outbox (id, row, next_attempt_ms) VALUES (?, ?, ?)",
      row.id,
      JSON.stringify(row),
      now,
    );
  }

  due(now: number): { id: string; row: string; attempts: number }[] {
    return this.sql
      .exec<{ id: string; row: string; attempts: number }>(
        "SELECT id, row, attempts FROM audit_outbox WHERE next_attempt_ms <= ? ORDER BY id LIMIT ?",
        now,
        BATCH,
      )
      .toArray();
  }

  written(ids: readonly string[]): void {
    for (const id of ids) this.sql.exec("DELETE FROM audit_outbox WHERE id = ?", id);
  }

  failed(rows: readonly { id: string; attempts: number }[], error: unknown, now: number): void {
    for (const { id, attempts } of rows) {
      this.sql.exec(
        "UPDATE audit_outbox SET attempts = attempts + 1, next_attempt_ms = ?, last_error = ? WHERE id = ?",
        now + retryDelayMs(attempts + 1),
        errorText(error).slice(0, 500),
        id,
      );
    }
  }

  nextDue(): number | null {
    return this.sql.exec<{ at: number | null }>("SELECT min(next_attempt_ms) AS at FROM audit_outbox").one().at;
  }
}

/** Writes every record due now; those D1 did not take wait for the alarm's next try. */
export async function writeDueAudit(env: Env, storage: DurableObjectStorage, outbox: AuditOutbox, now: number) {
  const due = outbox.due(now);
  if (due.length === 0) return;
  try {
    await writeRecords(
      createDb(env.DB),
      due.map((d) => JSON.parse(d.row) as AuditRow),
    );
    storage.transactionSync(() => outbox.written(due.map((d) => d.id)));
  } catch (error) {
    storage.transactionSync(() => outbox.failed(due, error, Date.now()));
  }
}

/**
 * The record of a change to `resource`'s status at `at` (ms): its id is made of the resource's
 * and that time, so the calendar's copy and the request's are one record.
 */
export const statusChangeRecord = (
  { businessId, actor }: Author,
  action: string,
  resource: { type: string; id: string },
  at: number,
): AuditRow =>
  auditRow({ id: changeAuditId(resource.id, at), businessId, actor, action, resource, fields: ["status"] }, at);
