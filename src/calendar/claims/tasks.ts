/**
 * What the entry calendar owes the calendars it claimed time in: releases (of a claim whose
 * booking was cancelled, moved, refused or abandoned) and confirmations (of a hold's claim that
 * became a booking's). Queued in the transaction that frees the seat here, then sent right after
 * the commit and by the alarm until the other calendar has it (both are idempotent). Until a
 * release lands, the time stays blocked there: a late release can refuse a booking, never
 * double-book one.
 */

import { errorText } from "../../lib/api-error";
import { retryDelayMs } from "../alarm-clock";
import type { ClaimedKind, ClaimRef, ClaimSpan } from "../claim-types";
import { claimTargetOf } from "../stubs";

/**
 * Tasks sent at once: enough for a refused series (52 occurrences, each a person's and up to five
 * rooms' releases) in one pass, a bounded read when many are owed.
 */
const DUE_AT_ONCE = 500;

type TaskRow = {
  calendar: ClaimedKind;
  target_id: string;
  claim_id: string;
  business_id: string;
  action: "release" | "confirm";
  payload: string | null;
  attempts: number;
};

/** The claim_tasks rows of one calendar. `release` and `confirm` run inside the caller's transaction. */
export class ClaimTasks {
  constructor(private readonly storage: DurableObjectStorage) {}

  private get sql() {
    return this.storage.sql;
  }

  /** Owes each claim's calendar its release, due at once (a release wins over a pending confirm). */
  release(businessId: string, claims: readonly ClaimRef[], now: number): void {
    if (claims.length === 0) return;
    // One statement for all (a refused series owes hundreds); `WHERE true` lets SQLite parse the upsert.
    this.sql.exec(
      `INSERT INTO claim_tasks (calendar, target_id, claim_id, business_id, action, attempts, next_attempt_ms)
       SELECT value ->> 0, value ->> 1, value ->> 2, ?, 'release', 0, ? FROM json_each(?) WHERE true
       ON CONFLICT (calendar, target_id, claim_id) DO UPDATE
       SET action = 'release', payload = NULL, attempts = 0, next_attempt_ms = excluded.next_attempt_ms`,
      businessId,
      now,
      JSON.stringify(claims.map((c) => [c.calendar, c.id, c.claimId])),
    );
  }

  /**
   * Owes a calendar the confirmation of a hold's claim that became a booking: the same claim
   * without an expiry. Until it lands, the claim's own expiry (later than the hold's) keeps the time.
   */
  confirm(businessId: string, claim: ClaimRef, span: ClaimSpan, now: number): void {
    this.owe(businessId, claim, { ...span, claimId: claim.claimId, expiresAt: null }, now);
  }

  /**
   * Owes a calendar the confirmation of a claim, sent as `payload` to its `confirm`: a hold's
   * claim that became a booking's, or a visit's segment seat once every claim was granted.
   */
  owe(businessId: string, claim: ClaimRef, payload: object, now: number): void {
    this.sql.exec(
      `INSERT INTO claim_tasks (calendar, target_id, claim_id, business_id, action, payload, attempts, next_attempt_ms)
       VALUES (?, ?, ?, ?, 'confirm', ?, 0, ?) ON CONFLICT (calendar, target_id, claim_id) DO NOTHING`,
      claim.calendar,
      claim.id,
      claim.claimId,
      businessId,
      JSON.stringify(payload),
      now,
    );
  }

  /**
   * Sends every due task (up to DUE_AT_ONCE): the releases owed to one calendar in one call, each
   * confirmation on its own; what fails backs off and waits for the alarm.
   */
  async send(env: Env, now: number): Promise<void> {
    const due = this.sql
      .exec<TaskRow>(
        `SELECT calendar, target_id, claim_id, business_id, action, payload, attempts FROM claim_tasks
         WHERE next_attempt_ms <= ? ORDER BY next_attempt_ms LIMIT ?`,
        now,
        DUE_AT_ONCE,
      )
      .toArray();
    // One call per calendar for its releases; a confirmation carries its own payload.
    const calls = new Map<string, TaskRow[]>();
    for (const row of due) {
      const target = `${row.calendar}:${row.business_id}:${row.target_id}`;
      const key = row.action === "release" ? target : `${target}:${row.claim_id}`;
      const rows = calls.get(key);
      if (rows) rows.push(row);
      else calls.set(key, [row]);
    }
    await Promise.all(
      [...calls.values()].map(async (rows) => {
        const [row] = rows as [TaskRow];
        const calendar = claimTargetOf(env, row.business_id, { calendar: row.calendar, id: row.target_id });
        const sent =
          row.action === "confirm"
            ? calendar.confirm(JSON.parse(row.payload ?? "{}")).then((answer) => {
                // Within the claim's grace this cannot happen; if it does, reconciliation shows it.
                if (!answer.ok) console.error(JSON.stringify({ level: "error", msg: "claim lost", ...row }));
              })
            : calendar.releaseEach(rows.map((r) => r.claim_id));
        const error = await sent.then(
          () => null,
          (e: unknown) => errorText(e),
        );
        this.storage.transactionSync(() => {
          for (const { claim_id, attempts } of rows) this.settle(row, claim_id, attempts, error, now);
        });
      }),
    );
  }

  /** One task sent: gone, or (`error`) tried again later. */
  private settle(target: TaskRow, claimId: string, attempts: number, error: string | null, now: number): void {
    const key = [target.calendar, target.target_id, claimId] as const;
    if (error === null) {
      this.sql.exec("DELETE FROM claim_tasks WHERE calendar = ? AND target_id = ? AND claim_id = ?", ...key);
      return;
    }
    this.sql.exec(
      `UPDATE claim_tasks SET attempts = attempts + 1, next_attempt_ms = ?, last_error = ?
       WHERE calendar = ? AND target_id = ? AND claim_id = ?`,
      now + retryDelayMs(attempts + 1),
      error.slice(0, 500),
      ...key,
    );
  }

  /** Claim ids still owed something, for reconciliation. */
  pending(): string[] {
    return this.sql
      .exec<{ claim_id: string }>("SELECT claim_id FROM claim_tasks ORDER BY claim_id")
      .toArray()
      .map((r) => r.claim_id);
  }

  /** When the earliest task is due, or null. */
  nextAttemptMs(): number | null {
    return this.sql.exec<{ at: number | null }>("SELECT min(next_attempt_ms) AS at FROM claim_tasks").one().at;
  }
}
