/**
 * Tombstones of seat claims this calendar released (steps/seat-claims.ts): a late duplicate of a
 * released claim is refused instead of taking the seat again. Kept 7 days, like a person's (steps/prune.ts).
 */

/** The released seat claims of one calendar. Every method runs inside the caller's transaction. */
export class ReleasedClaims {
  constructor(private readonly sql: SqlStorage) {}

  has(claimId: string): boolean {
    return this.sql.exec("SELECT 1 FROM released_claims WHERE claim_id = ?", claimId).toArray().length > 0;
  }

  add(claimId: string, now: number): void {
    this.sql.exec(
      "INSERT INTO released_claims (claim_id, released_ms) VALUES (?, ?) ON CONFLICT (claim_id) DO NOTHING",
      claimId,
      now,
    );
  }
}
