import type { ClaimRefusal, ClaimSpan, OverlappingClaim, ResourceSnapshot } from "../claim-types";
import { ClaimedCalendar } from "../claims/claimed-calendar";
import { checkResourceFree } from "../rules/resource-rules";
import { unitConflicts } from "../rules/seat-conflicts";
import { RoomConflicts, roomConflictMigrations } from "./room-conflicts";

/** How long a proposed change of settings narrows claims while its PATCH writes D1. */
const PROPOSAL_LEASE_MS = 15_000;

/** What a proposed change of a resource's settings gets. */
export type ResourceProposal =
  | { ok: true }
  | { ok: false; reason: "changed_meanwhile" }
  | { ok: false; reason: "conflicts"; conflicts: { at: string; bookingIds: string[] }[] };

/**
 * The calendar of one business's resource (a room, a chair, a machine): the single authority on
 * its units across every service that needs it. Each booking takes one unit for its blocked
 * span; the seats of one group session share it. A change to fewer units is proposed first
 * (refused while upcoming claims would not fit) and narrows claims until the PATCH confirms it;
 * a change of hours goes through and marks the bookings it leaves outside (room-conflicts.ts).
 */
export class ResourceCalendar extends ClaimedCalendar<ResourceSnapshot> {
  protected readonly reasons = { unavailable: "resource_unavailable", busy: "resource_unavailable" } as const;

  /** The bookings its hours no longer cover (room-conflicts.ts). */
  private readonly roomConflicts: RoomConflicts;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env, "resource", [
      "CREATE TABLE proposal (id INTEGER PRIMARY KEY CHECK (id = 1), until_ms INTEGER NOT NULL, settings TEXT NOT NULL);",
      ...roomConflictMigrations,
    ]);
    this.roomConflicts = new RoomConflicts(this.sql, () => this.stored());
  }

  override async alarm(): Promise<void> {
    await super.alarm();
    try {
      await this.roomConflicts.runDue(this.env, this.ctx.storage, Date.now());
    } finally {
      this.ctx.storage.transactionSync(() => this.scheduleAlarm());
    }
  }

  protected override ownWorkDue(): number | null {
    return this.roomConflicts.nextDue();
  }

  protected override settingsChanged(room: ResourceSnapshot): void {
    this.roomConflicts.hoursChanged(room, Date.now());
    // The conflicts it found are owed to D1 and the webhook now.
    this.scheduleAlarm();
  }

  protected override claimStored(claim: ClaimSpan, decided: boolean): void {
    // As a person's: only a hold's kept claim, not one `refuse` just decided, is checked anew.
    this.roomConflicts.claimStored(claim, decided ? null : this.stored(), Date.now());
  }

  protected override claimReleased(claimId: string): void {
    this.roomConflicts.claimReleased(claimId, this.stored(), Date.now());
  }

  protected refuse(resource: ResourceSnapshot, claim: ClaimSpan, overlapping: OverlappingClaim[]): ClaimRefusal | null {
    return checkResourceFree(resource, claim, overlapping);
  }

  /** With a live proposal, the fewer units and the stricter `active` of the two. */
  protected override effective(settings: ResourceSnapshot, now: number): ResourceSnapshot {
    const proposed = this.proposal(now);
    if (!proposed) return settings;
    return {
      ...settings,
      quantity: Math.min(settings.quantity, proposed.quantity),
      active: settings.active && proposed.active,
    };
  }

  /** Checks a change of settings against the upcoming claims and, if they fit, holds it until `configure`. */
  propose(next: ResourceSnapshot): ResourceProposal {
    return this.ctx.storage.transactionSync((): ResourceProposal => {
      const now = Date.now();
      const stored = this.stored();
      if (stored && stored.version >= next.version) return { ok: false, reason: "changed_meanwhile" };
      const claims = this.claims.live(now, now).map((c) => ({ ...c, s: c.blockedStart, e: c.blockedEnd }));
      const conflicts = unitConflicts(claims, next.quantity);
      if (conflicts.length > 0) {
        const listed = conflicts.map((c) => ({
          at: new Date(c.at).toISOString(),
          bookingIds: [...new Set(c.rowIds.map((id) => id.split(".")[0] ?? id))],
        }));
        return { ok: false, reason: "conflicts", conflicts: listed };
      }
      this.sql.exec(
        `INSERT INTO proposal (id, until_ms, settings) VALUES (1, ?, ?)
         ON CONFLICT (id) DO UPDATE SET until_ms = excluded.until_ms, settings = excluded.settings`,
        now + PROPOSAL_LEASE_MS,
        JSON.stringify(next),
      );
      return { ok: true };
    });
  }

  override configure(snapshot: ResourceSnapshot): { version: number } {
    const held = super.configure(snapshot);
    this.ctx.storage.transactionSync(() => {
      const proposed = this.proposal(0);
      if (proposed && held.version >= proposed.version) this.sql.exec("DELETE FROM proposal");
    });
    return held;
  }

  private proposal(now: number): ResourceSnapshot | null {
    const row = this.sql
      .exec<{ settings: string }>("SELECT settings FROM proposal WHERE id = 1 AND until_ms > ?", now)
      .toArray()[0];
    return row ? (JSON.parse(row.settings) as ResourceSnapshot) : null;
  }
}
