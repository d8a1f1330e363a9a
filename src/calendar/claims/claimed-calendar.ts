import { DurableObject } from "cloudflare:workers";
import type {
  ClaimCommand,
  ClaimedSettings,
  ClaimedSnapshot,
  ClaimRefusal,
  ClaimResult,
  ClaimSpan,
  HeldClaim,
  OverlappingClaim,
} from "../claim-types";
import { CALENDAR_KEEPS_PAST_MS } from "../retention";
import { migrate } from "../sqlite-migrations";
import { assertWellFormedClaim, type ClaimRow, claimOf, sameSpan } from "./claim-rows";
import { claimedMigrations } from "./storage";

/** How long a released claim id is remembered, so a late duplicate cannot bring it back. */
export const TOMBSTONE_RETENTION_MS = 7 * 86_400_000;

/**
 * A calendar that bookings claim time in — a person's, a room's — the single authority on its
 * owner's time across every service. Each method is one synchronous SQLite transaction, so
 * concurrent claims are serialised and nothing interleaves between check and write; what may
 * overlap is the subclass's rule (`refuse`).
 */
export abstract class ClaimedCalendar<S extends ClaimedSettings> extends DurableObject<Env> {
  protected readonly sql: SqlStorage;
  /** The longest blocked span ever stored: bounds how far back an overlapping claim can begin. */
  private maxBlockedMs: number;

  constructor(
    ctx: DurableObjectState,
    env: Env,
    private readonly settingsTable: string,
  ) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.storage.transactionSync(() => migrate(this.sql, claimedMigrations(settingsTable)));
    this.maxBlockedMs = this.sql
      .exec<{ value: number }>("SELECT value FROM meta WHERE key = 'max_blocked_ms'")
      .one().value;
  }

  /** Why the owner cannot take this claim beside the `overlapping` live ones, or null. */
  protected abstract refuse(settings: S, command: ClaimSpan, overlapping: OverlappingClaim[]): ClaimRefusal | null;

  /** Stores the owner's settings unless a newer version is already held; answers the version held. */
  configure(snapshot: S): { version: number } {
    return this.ctx.storage.transactionSync(() => ({ version: this.adopt(snapshot).version }));
  }

  /** Claims `[start, end)` of the owner's time for a booking or a hold (see ClaimSpan). */
  claim(command: ClaimCommand<S>): ClaimResult {
    assertWellFormedClaim(command);
    return this.ctx.storage.transactionSync(() => this.decide(this.adopt(command.settings), command, Date.now()));
  }

  /**
   * Keeps a hold's claim for the booking it became, without an expiry. Needs no copy of the
   * settings (the owner may have left the service): one that lapsed is decided on those held here.
   */
  confirm(span: ClaimSpan): ClaimResult {
    const claim = { ...span, expiresAt: null };
    assertWellFormedClaim(claim);
    return this.ctx.storage.transactionSync(() => {
      const settings = this.stored();
      if (!settings) return { ok: false, reason: this.reasons.unavailable, detail: "This calendar has no owner." };
      return this.decide(settings, claim, Date.now());
    });
  }

  /** Frees a claim and remembers its id as released; releasing twice (or an unknown id) is harmless. */
  release(claimId: string): { released: boolean } {
    return this.ctx.storage.transactionSync(() => {
      const released = this.sql.exec("DELETE FROM claims WHERE claim_id = ?", claimId).rowsWritten > 0;
      this.sql.exec(
        "INSERT INTO tombstones (claim_id, released_ms) VALUES (?, ?) ON CONFLICT (claim_id) DO NOTHING",
        claimId,
        Date.now(),
      );
      this.scheduleAlarm();
      return { released };
    });
  }

  /** How many live claims start in `[from, to)`: the owner's load, e.g. of one local day. */
  dayLoad(from: number, to: number): number {
    return this.ctx.storage.transactionSync(
      () =>
        this.sql
          .exec<{ n: number }>(
            "SELECT count(*) AS n FROM claims WHERE start_ms >= ? AND start_ms < ? AND (expires_ms IS NULL OR expires_ms > ?)",
            from,
            to,
            Date.now(),
          )
          .one().n,
    );
  }

  /** Live claims whose blocked span overlaps `[from, to)`: what the slot calendar needs of this owner. */
  claimsBetween(from: number, to: number): HeldClaim[] {
    return this.ctx.storage.transactionSync(() =>
      this.sql
        .exec<ClaimRow>(
          `SELECT * FROM claims WHERE blocked_start_ms > ? AND blocked_start_ms < ? AND blocked_end_ms > ?
             AND (expires_ms IS NULL OR expires_ms > ?) ORDER BY start_ms, claim_id`,
          from - this.maxBlockedMs - 1,
          to,
          from,
          Date.now(),
        )
        .toArray()
        .map(claimOf),
    );
  }

  /** The settings and live claims, for reconciliation with D1. */
  snapshot(): ClaimedSnapshot<S> {
    return this.ctx.storage.transactionSync(() => ({
      settings: this.stored(),
      claims: this.sql
        .exec<ClaimRow>(
          "SELECT * FROM claims WHERE expires_ms IS NULL OR expires_ms > ? ORDER BY start_ms, claim_id",
          Date.now(),
        )
        .toArray()
        .map(claimOf),
    }));
  }

  /**
   * Drops holds that expired, tombstones past retention and claims that ended long enough ago to
   * overlap nothing (so the calendar's size follows the owner's upcoming time, not their
   * history); idempotent, then re-arms for the next.
   */
  override async alarm(): Promise<void> {
    this.ctx.storage.transactionSync(() => {
      const now = Date.now();
      this.sql.exec("DELETE FROM claims WHERE expires_ms IS NOT NULL AND expires_ms <= ?", now);
      this.sql.exec("DELETE FROM claims WHERE blocked_end_ms <= ?", now - CALENDAR_KEEPS_PAST_MS);
      this.sql.exec("DELETE FROM tombstones WHERE released_ms <= ?", now - TOMBSTONE_RETENTION_MS);
      this.scheduleAlarm();
    });
  }

  /** The refusal reasons of this kind of calendar: no owner (or inactive), and time taken. */
  protected abstract readonly reasons: { unavailable: ClaimRefusal["reason"]; busy: ClaimRefusal["reason"] };

  // --- critical section: synchronous, no awaits --------------------------------------------

  private decide(settings: S, command: ClaimSpan, now: number): ClaimResult {
    if (this.sql.exec("SELECT 1 FROM tombstones WHERE claim_id = ?", command.claimId).toArray().length > 0) {
      return { ok: false, reason: this.reasons.busy, detail: "This claim was released; use a new claim id." };
    }
    const held = this.sql.exec<ClaimRow>("SELECT * FROM claims WHERE claim_id = ?", command.claimId).toArray()[0];
    const live = held && (held.expires_ms === null || held.expires_ms > now) ? held : undefined;
    if (live && sameSpan(live, command)) {
      // A replay; a new expiry (e.g. null: a hold became a booking) is the only thing it may change.
      const expires = command.expiresAt ?? null;
      if (expires !== live.expires_ms) {
        this.sql.exec("UPDATE claims SET expires_ms = ? WHERE claim_id = ?", expires, command.claimId);
        this.scheduleAlarm();
      }
      return { ok: true, replayed: true };
    }
    const refusal = this.refuse(settings, command, this.liveOverlapping(command, now));
    if (refusal) return refusal;
    // The claim itself (a move) or its expired remains are replaced in the same transaction.
    if (held) this.sql.exec("DELETE FROM claims WHERE claim_id = ?", command.claimId);
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
    this.scheduleAlarm();
    return { ok: true, replayed: false };
  }

  /**
   * Live claims (other than this one and the one it moves alongside) whose blocked span overlaps
   * the request's: one range scan of the blocked-span index, starting no earlier than the
   * longest span ever stored could reach back.
   */
  private liveOverlapping(command: ClaimSpan, now: number): OverlappingClaim[] {
    return this.sql
      .exec<OverlappingClaim>(
        `SELECT service_id AS serviceId, start_ms AS start, session FROM claims
         WHERE blocked_start_ms > ? AND blocked_start_ms < ? AND blocked_end_ms > ?
           AND (expires_ms IS NULL OR expires_ms > ?) AND claim_id <> ? AND claim_id <> ?`,
        command.blockedStart - this.maxBlockedMs - 1,
        command.blockedEnd,
        command.blockedStart,
        now,
        command.claimId,
        command.alongside ?? "",
      )
      .toArray();
  }

  /** The newer of the stored settings and `snapshot` (stored when newer). */
  private adopt(snapshot: S): S {
    const stored = this.stored();
    if (stored && stored.version >= snapshot.version) return stored;
    this.sql.exec(
      `INSERT INTO ${this.settingsTable} (id, version, settings) VALUES (1, ?, ?)
       ON CONFLICT (id) DO UPDATE SET version = excluded.version, settings = excluded.settings`,
      snapshot.version,
      JSON.stringify(snapshot),
    );
    return snapshot;
  }

  private stored(): S | null {
    const row = this.sql
      .exec<{ settings: string }>(`SELECT settings FROM ${this.settingsTable} WHERE id = 1`)
      .toArray()[0];
    return row ? (JSON.parse(row.settings) as S) : null;
  }

  /**
   * Keeps one alarm at the earliest hold expiry, tombstone end or claim to prune, written in the
   * caller's transaction (SQLite-backed storage commits the alarm with it).
   */
  private scheduleAlarm(): void {
    const next = this.sql
      .exec<{ at: number | null }>(
        `SELECT min(at) AS at FROM (
           SELECT min(expires_ms) AS at FROM claims WHERE expires_ms IS NOT NULL
           UNION ALL SELECT min(released_ms) + ? FROM tombstones
           UNION ALL SELECT min(blocked_end_ms) + ? FROM claims)`,
        TOMBSTONE_RETENTION_MS,
        CALENDAR_KEEPS_PAST_MS,
      )
      .one().at;
    if (next === null) void this.ctx.storage.deleteAlarm();
    else void this.ctx.storage.setAlarm(next);
  }
}
