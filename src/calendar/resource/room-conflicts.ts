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
  type BookedSpan,
  type ConflictContext,
  clearReleased,
  type Found,
  iso,
  openFound,
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
    reconcileConflicts(this.context(), ["resource_closed"], booked, this.closedOver(room, booked), now);
  }

  /**
   * A claim was stored or kept: a hold's that became a booking's names that booking from now on,
   * and one placed before the room's hours changed (a hold keeps its time) is marked as it
   * becomes a booking they no longer cover.
   */
  claimStored(claim: ClaimSpan, room: ResourceSnapshot | null, now: number): void {
    if (claim.expiresAt) return;
    if (claim.bookingId && claim.bookingId !== claim.claimId) {
      this.sql.exec(
        "INSERT INTO claim_bookings (claim_id, booking_id) VALUES (?, ?) ON CONFLICT (claim_id) DO NOTHING",
        claim.claimId,
        claim.bookingId,
      );
    }
    if (!room || claim.end <= now) return;
    const bookingId = claim.bookingId ?? claim.claimId.split(".")[0] ?? claim.claimId;
    openFound(
      this.context(),
      bookingId,
      this.closedOver(room, [{ bookingId, start: claim.start, end: claim.end }]),
      now,
    );
  }

  /** What the room's hours say of `booked`: each booking they no longer cover. */
  private closedOver(room: ResourceSnapshot, booked: readonly BookedSpan[]): Found {
    const found: Found = new Map();
    // An inactive room's bookings are the business's to move, as an inactive person's.
    if (!room.active) return found;
    for (const b of booked) {
      if (found.has(b.bookingId) || openOver(room, b.start, b.end)) continue;
      const detail = `The room's hours no longer cover ${iso(b.start)} to ${iso(b.end)}.`;
      found.set(b.bookingId, { kind: "resource_closed", detail });
    }
    return found;
  }

  /** A claim was released: the booking's conflicts are those of the time it keeps in `room`, if any. */
  claimReleased(claimId: string, room: ResourceSnapshot | null, now: number): void {
    const row = this.sql
      .exec<{ booking_id: string }>("SELECT booking_id FROM claim_bookings WHERE claim_id = ?", claimId)
      .toArray()[0];
    const bookingId = row?.booking_id ?? claimId.split(".")[0] ?? claimId;
    clearReleased(this.context(), bookingId, (left) => [room ? this.closedOver(room, left) : undefined], now);
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
