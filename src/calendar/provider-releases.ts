/**
 * Tasks owed to provider calendars, mostly releases: a claim whose booking was cancelled, completed, moved to
 * another provider, refused or abandoned. Queued in the transaction that frees the seat here,
 * then sent (`ProviderCalendar.release`, idempotent) right after the commit and by the alarm
 * until the provider calendar has it. Until then the person's time stays blocked: a late release
 * can refuse a booking, never double-book one.
 */
import { errorText } from "./event-relay";
import { retryDelayMs } from "./outbox";
import { providerCalendarOf } from "./provider/client";
import type { ClaimCommand } from "./provider/types";

type TaskRow = {
  claim_id: string;
  business_id: string;
  provider_id: string;
  action: "release" | "confirm";
  claim: string | null;
  attempts: number;
};

/** A claim on a provider's time that a calendar row holds. */
export type HeldClaim = { businessId: string; providerId: string; claimId: string };

/** The provider_releases rows of one calendar. `queue` runs inside the caller's transaction. */
export class ProviderReleases {
  constructor(private readonly storage: DurableObjectStorage) {}

  private get sql() {
    return this.storage.sql;
  }

  /** Owes the claim's provider calendar its release, due at once (a release wins over a pending confirm). */
  queue(claim: HeldClaim, now: number): void {
    this.sql.exec(
      `INSERT INTO provider_releases (claim_id, business_id, provider_id, action, attempts, next_attempt_ms)
       VALUES (?, ?, ?, 'release', 0, ?)
       ON CONFLICT (claim_id) DO UPDATE SET action = 'release', claim = NULL, attempts = 0, next_attempt_ms = excluded.next_attempt_ms`,
      claim.claimId,
      claim.businessId,
      claim.providerId,
      now,
    );
  }

  /**
   * Owes the provider calendar the confirmation of a hold's claim that became a booking: the
   * same claim again without an expiry (idempotent). Until it lands, the claim's own expiry
   * (later than the hold's) keeps the person's time.
   */
  queueConfirm(claim: HeldClaim, command: Omit<ClaimCommand, "provider">, now: number): void {
    this.sql.exec(
      `INSERT INTO provider_releases (claim_id, business_id, provider_id, action, claim, attempts, next_attempt_ms)
       VALUES (?, ?, ?, 'confirm', ?, 0, ?) ON CONFLICT (claim_id) DO NOTHING`,
      claim.claimId,
      claim.businessId,
      claim.providerId,
      JSON.stringify({ ...command, expiresAt: null }),
      now,
    );
  }

  /** Sends every due release; each one that fails backs off and waits for the alarm. */
  async send(env: Env, now: number): Promise<void> {
    const due = this.sql
      .exec<TaskRow>(
        `SELECT claim_id, business_id, provider_id, action, claim, attempts FROM provider_releases
         WHERE next_attempt_ms <= ? ORDER BY next_attempt_ms LIMIT 50`,
        now,
      )
      .toArray();
    await Promise.all(
      due.map(async (row) => {
        const calendar = providerCalendarOf(env, row.business_id, row.provider_id);
        const sent =
          row.action === "confirm"
            ? calendar.confirm(JSON.parse(row.claim ?? "{}") as Omit<ClaimCommand, "provider">).then((answer) => {
                // Within the claim's grace this cannot happen; if it does, reconciliation shows it.
                if (!answer.ok) console.error(JSON.stringify({ level: "error", msg: "hold claim lost", ...row }));
              })
            : calendar.release(row.claim_id);
        const error = await sent.then(
          () => null,
          (e: unknown) => errorText(e),
        );
        this.storage.transactionSync(() => {
          if (error === null) this.sql.exec("DELETE FROM provider_releases WHERE claim_id = ?", row.claim_id);
          else {
            this.sql.exec(
              "UPDATE provider_releases SET attempts = attempts + 1, next_attempt_ms = ?, last_error = ? WHERE claim_id = ?",
              now + retryDelayMs(row.attempts + 1),
              error.slice(0, 500),
              row.claim_id,
            );
          }
        });
      }),
    );
  }

  /** Claim ids still owed, for reconciliation. */
  pending(): string[] {
    return this.sql
      .exec<{ claim_id: string }>("SELECT claim_id FROM provider_releases ORDER BY claim_id")
      .toArray()
      .map((r) => r.claim_id);
  }

  /** When the earliest release is due, or null. */
  nextAttemptMs(): number | null {
    return this.sql.exec<{ at: number | null }>("SELECT min(next_attempt_ms) AS at FROM provider_releases").one().at;
  }
}
