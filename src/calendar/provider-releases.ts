/**
 * Releases owed to provider calendars: a claim whose booking was cancelled, completed, moved to
 * another provider, refused or abandoned. Queued in the transaction that frees the seat here,
 * then sent (`ProviderCalendar.release`, idempotent) right after the commit and by the alarm
 * until the provider calendar has it. Until then the person's time stays blocked: a late release
 * can refuse a booking, never double-book one.
 */
import { errorText } from "./event-relay";
import { retryDelayMs } from "./outbox";
import { providerCalendarOf } from "./provider/client";

type ReleaseRow = { claim_id: string; business_id: string; provider_id: string; attempts: number };

/** A claim on a provider's time that a calendar row holds. */
export type HeldClaim = { businessId: string; providerId: string; claimId: string };

/** The provider_releases rows of one calendar. `queue` runs inside the caller's transaction. */
export class ProviderReleases {
  constructor(private readonly storage: DurableObjectStorage) {}

  private get sql() {
    return this.storage.sql;
  }

  /** Owes the claim's provider calendar its release, due at once. */
  queue(claim: HeldClaim, now: number): void {
    this.sql.exec(
      `INSERT INTO provider_releases (claim_id, business_id, provider_id, attempts, next_attempt_ms) VALUES (?, ?, ?, 0, ?)
       ON CONFLICT (claim_id) DO NOTHING`,
      claim.claimId,
      claim.businessId,
      claim.providerId,
      now,
    );
  }

  /** Sends every due release; each one that fails backs off and waits for the alarm. */
  async send(env: Env, now: number): Promise<void> {
    const due = this.sql
      .exec<ReleaseRow>(
        `SELECT claim_id, business_id, provider_id, attempts FROM provider_releases
         WHERE next_attempt_ms <= ? ORDER BY next_attempt_ms LIMIT 50`,
        now,
      )
      .toArray();
    await Promise.all(
      due.map(async (row) => {
        const error = await providerCalendarOf(env, row.business_id, row.provider_id)
          .release(row.claim_id)
          .then(
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
