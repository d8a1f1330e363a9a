/**
 * The claims table of a claimed calendar and its tombstones. Every method runs inside the
 * caller's transaction. Overlap scans use the blocked-span index and start no earlier than the
 * longest blocked span ever stored could reach back, so they read the overlapping claims only.
 */
import type { ClaimSpan, HeldClaim, OverlappingClaim, Range } from "../claim-types";
import { CALENDAR_KEEPS_PAST_MS } from "../retention";
import { type ClaimRow, claimOf } from "./claim-rows";

/** How long a released claim id is remembered, so a late duplicate cannot bring it back. */
export const TOMBSTONE_RETENTION_MS = 7 * 86_400_000;

const LIVE = "(expires_ms IS NULL OR expires_ms > ?)";

export class ClaimStore {
  private maxBlockedMs: number;

  constructor(private readonly sql: SqlStorage) {
    this.maxBlockedMs = sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = 'max_blocked_ms'").one().value;
  }

  /** The claim with this id, live or expired. */
  find(claimId: string): ClaimRow | undefined {
    return this.sql.exec<ClaimRow>("SELECT * FROM claims WHERE claim_id = ?", claimId).toArray()[0];
  }

  isReleased(claimId: string): boolean {
    return this.sql.exec("SELECT 1 FROM tombstones WHERE claim_id = ?", claimId).toArray().length > 0;
  }

  /** Stores a claim (replacing an earlier one of the same id: a move, or an expired remain). */
  put(command: ClaimSpan, now: number): void {
    this.sql.exec("DELETE FROM claims WHERE claim_id = ?", command.claimId);
    this.sql.exec(
      `INSERT INTO claims (claim_id, service_id, session, start_ms, end_ms, blocked_start_ms, blocked_end_ms, capacity, expires_ms, created_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      command.claimId,
      command.serviceId,
      command.session,
      command.start,
      command.end,
      command.blockedStart,
      command.blockedEnd,
      command.capacity,
      command.expiresAt ?? null,
      now,
    );
    const blockedMs = command.blockedEnd - command.blockedStart;
    if (blockedMs > this.maxBlockedMs) {
      this.maxBlockedMs = blockedMs;
      this.sql.exec("UPDATE meta SET value = ? WHERE key = 'max_blocked_ms'", blockedMs);
    }
  }

  setExpiry(claimId: string, expiresAt: number | null): void {
    this.sql.exec("UPDATE claims SET expires_ms = ? WHERE claim_id = ?", expiresAt, claimId);
  }

  /** Frees a claim and remembers its id as released; answers whether it was held. */
  release(claimId: string, now: number): boolean {
    const released = this.sql.exec("DELETE FROM claims WHERE claim_id = ?", claimId).rowsWritten > 0;
    this.sql.exec(
      "INSERT INTO tombstones (claim_id, released_ms) VALUES (?, ?) ON CONFLICT (claim_id) DO NOTHING",
      claimId,
      now,
    );
    return released;
  }

  /** Live claims (other than this one and the one it moves alongside) overlapping the request's blocked span. */
  overlapping(command: ClaimSpan, now: number): OverlappingClaim[] {
    return this.sql
      .exec<OverlappingClaim>(
        `SELECT service_id AS serviceId, start_ms AS start, session FROM claims
         WHERE blocked_start_ms > ? AND blocked_start_ms < ? AND blocked_end_ms > ?
           AND ${LIVE} AND claim_id <> ? AND claim_id NOT IN (SELECT value FROM json_each(?))`,
        command.blockedStart - this.maxBlockedMs - 1,
        command.blockedEnd,
        command.blockedStart,
        now,
        command.claimId,
        JSON.stringify([command.alongside ?? []].flat()),
      )
      .toArray();
  }

  /** Live claims whose blocked span overlaps `[from, to)`, by start. */
  between(from: number, to: number, now: number): HeldClaim[] {
    return this.sql
      .exec<ClaimRow>(
        `SELECT * FROM claims WHERE blocked_start_ms > ? AND blocked_start_ms < ? AND blocked_end_ms > ?
           AND ${LIVE} ORDER BY start_ms, claim_id`,
        from - this.maxBlockedMs - 1,
        to,
        from,
        now,
      )
      .toArray()
      .map(claimOf);
  }

  /**
   * `between` of each range, in one statement (one indexed scan per range): a series' occurrences
   * read at once, not with a statement each.
   */
  betweenEach(ranges: readonly Range[], now: number): HeldClaim[][] {
    const each: HeldClaim[][] = ranges.map(() => []);
    const rows = this.sql.exec<ClaimRow & { range_index: number }>(
      `SELECT r.key AS range_index, c.* FROM json_each(?) r JOIN claims c
         ON c.blocked_start_ms > (r.value ->> 0) - ? - 1 AND c.blocked_start_ms < r.value ->> 1
        AND c.blocked_end_ms > r.value ->> 0 AND (c.expires_ms IS NULL OR c.expires_ms > ?)
       ORDER BY r.key, c.start_ms, c.claim_id`,
      JSON.stringify(ranges.map(({ from, to }) => [from, to])),
      this.maxBlockedMs,
      now,
    );
    for (const { range_index, ...row } of rows) each[range_index]?.push(claimOf(row));
    return each;
  }

  /** Every live claim by start, or (`after`) those whose blocked span ends after it. */
  live(now: number, after = Number.NEGATIVE_INFINITY): HeldClaim[] {
    return this.sql
      .exec<ClaimRow>(
        `SELECT * FROM claims WHERE ${LIVE} AND blocked_end_ms > ? ORDER BY start_ms, claim_id`,
        now,
        after,
      )
      .toArray()
      .map(claimOf);
  }

  /** How many live claims start in each `[from, to)`, in one statement (one indexed count per range). */
  countStartingEach(ranges: readonly Range[], now: number): number[] {
    const counts = this.sql.exec<{ n: number }>(
      `SELECT (SELECT count(*) FROM claims c WHERE c.start_ms >= r.value ->> 0 AND c.start_ms < r.value ->> 1
                 AND (c.expires_ms IS NULL OR c.expires_ms > ?)) AS n
       FROM json_each(?) r ORDER BY r.key`,
      now,
      JSON.stringify(ranges.map(({ from, to }) => [from, to])),
    );
    return [...counts].map((row) => row.n);
  }

  /** Drops expired holds, claims that ended long ago and tombstones past retention. */
  prune(now: number): void {
    this.sql.exec("DELETE FROM claims WHERE expires_ms IS NOT NULL AND expires_ms <= ?", now);
    this.sql.exec("DELETE FROM claims WHERE blocked_end_ms <= ?", now - CALENDAR_KEEPS_PAST_MS);
    this.sql.exec("DELETE FROM tombstones WHERE released_ms <= ?", now - TOMBSTONE_RETENTION_MS);
  }

  /** When the next hold expires, tombstone lapses or claim is old enough to prune; null when none. */
  nextDue(): number | null {
    return this.sql
      .exec<{ at: number | null }>(
        `SELECT min(at) AS at FROM (
           SELECT min(expires_ms) AS at FROM claims WHERE expires_ms IS NOT NULL
           UNION ALL SELECT min(released_ms) + ? FROM tombstones
           UNION ALL SELECT min(blocked_end_ms) + ? FROM claims)`,
        TOMBSTONE_RETENTION_MS,
        CALENDAR_KEEPS_PAST_MS,
      )
      .one().at;
  }
}
