/**
 * Conflicts where a change of a room's hours lands (docs/staff-calendars.md, "Conflicts"): in the
 * transaction that stores its new settings, each booking still to come that its hours or date
 * overrides no longer cover is marked `resource_closed`, once, with one `booking.conflict`; one
 * covered again (or moved, or cancelled) clears with one `booking.conflict_resolved`. The rows and
 * events reach D1 by the room's alarm, as a person's do (src/calendar/provider/conflicts.ts).
 */
import type { ClaimSpan, ResourceSnapshot } from "../claim-types";
import { CalendarEvents, publishDueEvents } from "../provider/calendar-events";
import { ConflictStore, conflictsMigration } from "../provider/conflict-store";
import {
  type ConflictContext,
  clearBooking,
  type Found,
  iso,
  pushConflicts,
  reconcileConflicts,
  upcoming,
} from "../provider/conflicts";
import { calendarEventsTable, claimBookingsTable } from "../provider/tables";
import { openOver } from "../rules/resource-rules";

/** The room's tables for its conflicts, after the claimed calendar's and its proposal's. */
export const roomConflictMigrations = [`${claimBookingsTable}\n   ${calendarEventsTable}`, conflictsMigration];

export class RoomConflicts {
  private readonly conflicts: ConflictStore;
  private readonly events: CalendarEvents;

  constructor(
    private readonly sql: SqlStorage,
    private readonly room: () => ResourceSnapshot | null,
  ) {
    this.conflicts = new ConflictStore(sql);
    this.events = new CalendarEvents(sql);
  }

  /** The room's settings changed: bookings its hours no longer cover are marked, those covered again cleared. */
  hoursChanged(room: ResourceSnapshot, now: number): void {
    const booked = upcoming(this.sql, now);
    const found: Found = new Map();
    // An inactive room's bookings are the business's to move, as an inactive person's.
    if (room.active) {
      for (const b of booked) {
        if (found.has(b.bookingId) || openOver(room, b.start, b.end)) continue;
        const detail = `The room's hours no longer cover ${iso(b.start)} to ${iso(b.end)}.`;
        found.set(b.bookingId, { kind: "resource_closed", detail });
      }
    }
    reconcileConflicts(this.context(), ["resource_closed"], booked, found, now);
  }

  /** A hold's claim became a booking's: its conflicts are the booking's. */
  claimStored(claim: ClaimSpan): void {
    if (claim.expiresAt || !claim.bookingId || claim.bookingId === claim.claimId) return;
    this.sql.exec(
      "INSERT INTO claim_bookings (claim_id, booking_id) VALUES (?, ?) ON CONFLICT (claim_id) DO NOTHING",
      claim.claimId,
      claim.bookingId,
    );
  }

  /** A claim was released (the booking moved or was cancelled): its conflicts clear. */
  claimReleased(claimId: string, now: number): void {
    const row = this.sql
      .exec<{ booking_id: string }>("SELECT booking_id FROM claim_bookings WHERE claim_id = ?", claimId)
      .toArray()[0];
    clearBooking(this.context(), row?.booking_id ?? claimId.split(".")[0] ?? claimId, now);
  }

  nextDue(): number | null {
    const due = [this.conflicts.nextDue(), this.events.nextDue()].filter((t): t is number => t !== null);
    return due.length ? Math.min(...due) : null;
  }

  /** Conflict rows to D1, then their events to D1 and the queue (so a webhook's conflict is there). */
  async runDue(env: Env, storage: DurableObjectStorage, now: number): Promise<void> {
    const room = this.room();
    if (room)
      await pushConflicts(env, storage, this.conflicts, { businessId: room.businessId, sourceId: room.id }, now);
    await publishDueEvents(env, storage, this.events, now);
  }

  private context(): ConflictContext {
    return {
      sql: this.sql,
      conflicts: this.conflicts,
      events: this.events,
      owner: () => {
        const room = this.room();
        return { businessId: room?.businessId ?? "", sourceId: room?.id ?? "", about: { resourceId: room?.id ?? "" } };
      },
    };
  }
}
