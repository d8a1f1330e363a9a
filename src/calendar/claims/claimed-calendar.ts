import { DurableObject } from "cloudflare:workers";
import { answerOnShard, commandOf, ObjectTenancy } from "../../shards/object-shard";
import type {
  ClaimCommand,
  ClaimedSettings,
  ClaimedSnapshot,
  ClaimRefusal,
  ClaimResult,
  ClaimSpan,
  ClaimsResult,
  HeldClaim,
  OverlappingClaim,
  Range,
} from "../claim-types";
import { migrate } from "../sqlite-migrations";
import { decideEach } from "./batch";
import { assertWellFormedClaim, sameSpan } from "./claim-rows";
import { ClaimStore } from "./claim-store";
import { claimedMigrations } from "./migrations";

/** A person's or room's calendar methods that change nothing: answered while a move holds its writes. */
// biome-ignore format: one line of names
const CLAIMED_READS = new Set(["dayLoads", "claimsBetween", "claimsAround", "snapshot", "timeBetween", "timeAround", "listCalendars", "getCalendar"]);

/**
 * A calendar that bookings claim time in — a person's, a room's — the single authority on its
 * owner's time across every service. Each method is one synchronous SQLite transaction, so
 * concurrent claims are serialised and nothing interleaves between check and write; what may
 * overlap is the subclass's rule (`refuse`).
 */
export abstract class ClaimedCalendar<S extends ClaimedSettings> extends DurableObject<Env> {
  protected readonly sql: SqlStorage;
  protected readonly claims: ClaimStore;
  /** The tenant's shard, and whether a move holds the object's writes. */
  protected readonly tenancy: ObjectTenancy;

  constructor(
    ctx: DurableObjectState,
    env: Env,
    private readonly settingsTable: string,
    /** Migrations of a kind's own tables, after the shared ones. */
    ownMigrations: string[] = [],
  ) {
    super(ctx, env);
    // The tenant's shard, as the last call told it (src/shards/object-shard.ts).
    this.tenancy = new ObjectTenancy(ctx, env, CLAIMED_READS);
    this.env = this.tenancy.env;
    this.sql = ctx.storage.sql;
    ctx.storage.transactionSync(() => migrate(this.sql, [...claimedMigrations(settingsTable), ...ownMigrations]));
    this.claims = new ClaimStore(this.sql);
  }

  /** Runs a tenant's call on its shard (kept for alarms); asked for a bookmark, it has none: claims stay here. */
  async onShard(shard: number, method: string, args: unknown[], withBookmark?: boolean): Promise<unknown> {
    this.env = this.tenancy.admit(shard, method);
    return answerOnShard(commandOf(this, method), args, withBookmark, null);
  }

  /** A move of the tenant holds the object's writes (see ServiceCalendar's); answers once none is running. */
  async holdForRelocation(): Promise<void> {
    await this.tenancy.hold();
  }

  /** The move is done: the object works on `shard`, refuses calls carrying `from`, and runs its due work. */
  async resumeOn(shard: number, from: number): Promise<void> {
    this.tenancy.resume(shard, from);
    this.env = this.tenancy.env;
    this.ctx.storage.transactionSync(() => this.scheduleAlarm());
  }

  /** Why the owner cannot take this claim beside the `overlapping` live ones, or null. */
  protected abstract refuse(settings: S, command: ClaimSpan, overlapping: OverlappingClaim[]): ClaimRefusal | null;

  /** The refusal reasons of this kind of calendar: no owner (or inactive), and time taken. */
  protected abstract readonly reasons: { unavailable: ClaimRefusal["reason"]; busy: ClaimRefusal["reason"] };

  /** Stores the owner's settings unless a newer version is already held; answers the version held. */
  configure(snapshot: S): { version: number } {
    return this.ctx.storage.transactionSync(() => ({ version: this.adopt(snapshot).version }));
  }

  /** Claims `[start, end)` of the owner's time for a booking or a hold (see ClaimSpan). */
  claim(command: ClaimCommand<S>): ClaimResult {
    assertWellFormedClaim(command);
    return this.ctx.storage.transactionSync(() =>
      this.scheduled(this.decide(this.effective(this.adopt(command.settings), Date.now()), command, Date.now())),
    );
  }

  /**
   * Several claims for one entry (a series' occurrences), decided in one transaction in order:
   * all granted, or none written and every refusal listed (batch.ts).
   */
  claimEach(commands: ClaimCommand<S>[]): ClaimsResult {
    for (const command of commands) assertWellFormedClaim(command);
    return decideEach(
      this.ctx.storage,
      commands,
      (command, now) => this.decide(this.effective(this.adopt(command.settings), now), command, now),
      () => this.scheduleAlarm(),
    );
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
      return this.scheduled(this.decide(this.effective(settings, Date.now()), claim, Date.now()));
    });
  }

  /** Frees a claim and remembers its id as released; releasing twice (or an unknown id) is harmless. */
  release(claimId: string): { released: boolean } {
    return this.ctx.storage.transactionSync(() => {
      const released = this.claims.release(claimId, Date.now());
      if (released) this.claimReleased(claimId);
      this.scheduleAlarm();
      return { released };
    });
  }

  /** Frees several claims in one transaction (an entry's owed releases to this calendar); answers how many were held. */
  releaseEach(claimIds: string[]): { released: number } {
    return this.ctx.storage.transactionSync(() => {
      const released = claimIds.filter((id) => this.claims.release(id, Date.now()));
      for (const id of released) this.claimReleased(id);
      this.scheduleAlarm();
      return { released: released.length };
    });
  }

  /**
   * How many live claims start in each `[from, to)`: the owner's load, e.g. of one local day per
   * occurrence of a series. Read without a transaction, as `claimsBetween`.
   */
  dayLoads(ranges: readonly Range[]): number[] {
    return this.claims.countStartingEach(ranges, Date.now());
  }

  /**
   * Live claims whose blocked span overlaps `[from, to)`: what the slot calendar needs of this
   * owner. Read without a transaction: nothing else runs in the object until this returns.
   */
  claimsBetween(from: number, to: number): HeldClaim[] {
    return this.claims.between(from, to, Date.now());
  }

  /** `claimsBetween` of each range, in one call (a series' occurrences). */
  claimsAround(ranges: readonly Range[]): HeldClaim[][] {
    return this.claims.betweenEach(ranges, Date.now());
  }

  /** The settings and live claims, for reconciliation with D1. */
  snapshot(): ClaimedSnapshot<S> {
    return this.ctx.storage.transactionSync(() => ({ settings: this.stored(), claims: this.claims.live(Date.now()) }));
  }

  /**
   * Drops holds that expired, tombstones past retention and claims that ended long enough ago to
   * overlap nothing (so the calendar's size follows the owner's upcoming time, not their
   * history); idempotent, then re-arms for the next.
   */
  override async alarm(): Promise<void> {
    this.ctx.storage.transactionSync(() => {
      this.claims.prune(Date.now());
      this.scheduleAlarm();
    });
  }

  // Hooks, in one transaction: a claim stored (`decided`: just by `refuse`) or kept with a new expiry, one released, newer settings.
  protected claimStored(_claim: ClaimSpan, _decided: boolean): void {}
  protected claimReleased(_claimId: string): void {}
  protected settingsChanged(_settings: S): void {}

  /** The earliest work of the kind's own that the alarm must run, or null. */
  protected ownWorkDue(): number | null {
    return null;
  }

  /** The settings a claim is decided with: the stored ones, unless a kind narrows them (a proposed change). */
  protected effective(settings: S, _now: number): S {
    return settings;
  }

  protected stored(): S | null {
    const row = this.sql
      .exec<{ settings: string }>(`SELECT settings FROM ${this.settingsTable} WHERE id = 1`)
      .toArray()[0];
    return row ? (JSON.parse(row.settings) as S) : null;
  }

  // --- critical section: synchronous, no awaits --------------------------------------------

  /** Decides one claim and writes it; the caller re-arms the alarm (once for several). */
  private decide(settings: S, command: ClaimSpan, now: number): ClaimResult {
    if (this.claims.isReleased(command.claimId)) {
      return { ok: false, reason: this.reasons.busy, detail: "This claim was released; use a new claim id." };
    }
    const held = this.claims.find(command.claimId);
    const live = held && (held.expires_ms === null || held.expires_ms > now) ? held : undefined;
    if (live && sameSpan(live, command)) {
      // A replay; a new expiry (e.g. null: a hold became a booking) is the only thing it may change.
      const expires = command.expiresAt ?? null;
      if (expires !== live.expires_ms) {
        this.claims.setExpiry(command.claimId, expires);
        this.claimStored(command, false);
      }
      return { ok: true, replayed: true };
    }
    const refusal = this.refuse(settings, command, this.claims.overlapping(command, now));
    if (refusal) return refusal;
    this.claims.put(command, now);
    this.claimStored(command, true);
    return { ok: true, replayed: false };
  }

  /** A decision, after which the alarm is re-armed if it granted (a claim's expiry may be the next due). */
  private scheduled(answer: ClaimResult): ClaimResult {
    if (answer.ok) this.scheduleAlarm();
    return answer;
  }

  /** The newer of the stored settings and `snapshot` (stored when newer, and the kind told). */
  private adopt(snapshot: S): S {
    const stored = this.stored();
    if (stored && stored.version >= snapshot.version) return stored;
    this.sql.exec(
      `INSERT INTO ${this.settingsTable} (id, version, settings) VALUES (1, ?, ?)
       ON CONFLICT (id) DO UPDATE SET version = excluded.version, settings = excluded.settings`,
      snapshot.version,
      JSON.stringify(snapshot),
    );
    if (stored) this.settingsChanged(snapshot);
    return snapshot;
  }

  /** Keeps one alarm at the next due work, written in the caller's transaction (committed with it). */
  protected scheduleAlarm(): void {
    const due = [this.claims.nextDue(), this.ownWorkDue()].filter((at): at is number => at !== null);
    const next = due.length > 0 ? Math.min(...due) : null;
    if (next === null) void this.ctx.storage.deleteAlarm();
    else void this.ctx.storage.setAlarm(next);
  }
}
