/**
 * The service's waitlist: customers queued for a full slot (a start, an end, maybe a person),
 * in the calendar that decides the slot's seats. When a seat frees, the first WAITING entry of
 * the slot is offered a hold (flows/offer-seats.ts); the entry follows its hold — BOOKED when it becomes a
 * booking, EXPIRED when it lapses or is released, after which the next entry is offered — or
 * EXPIRED, as read, once its slot begins while it waits (tables/waitlist-rows.ts). Every method runs
 * inside the caller's transaction.
 */
import type { HoldStatus } from "../../../types/hold";
import type { WaitlistEntry, WaitlistFrom, WaitlistRows, WaitlistStatus } from "../../../types/waitlist";
import type { OfferContext } from "../../types";
import { entryOf, type Row, recordOf, SELECT_ENTRY, SHOWN_STATUS } from "./waitlist-rows";

/** How many entries (WAITING or OFFERED) one slot may queue, and how many a service may hold for slots ahead. */
export const MAX_PER_SLOT = 50;
export const MAX_PER_SERVICE = 2_000;

/** A slot entries queue for. */
export type QueuedSlot = { start: number; end: number; providerId: string | null };

const SLOT = "start_ms = ? AND end_ms = ? AND coalesce(provider_id, '') = ?";
const slotArgs = (slot: QueuedSlot) => [slot.start, slot.end, slot.providerId ?? ""] as const;

export class Waitlist {
  constructor(private readonly sql: SqlStorage) {}

  /** Queues an entry at the end of its slot's queue. */
  add(owner: { businessId: string; apiKeyId: string }, entry: WaitlistEntry): void {
    this.sql.exec(
      `INSERT INTO waitlist (id, business_id, api_key_id, start_ms, end_ms, provider_id, status, hold_id, record)
       VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
      entry.id,
      owner.businessId,
      owner.apiKeyId,
      Date.parse(entry.startTime),
      Date.parse(entry.endTime),
      entry.providerId,
      entry.status,
      JSON.stringify(recordOf(entry)),
    );
  }

  /**
   * Entries WAITING or OFFERED for a slot, and for the whole service's slots still ahead: an entry
   * whose slot has begun can never be offered, so it no longer takes a place in the bounds.
   */
  queued(slot: QueuedSlot, now: number): { slot: number; service: number } {
    const live = "status IN ('WAITING', 'OFFERED')";
    const inSlot = this.sql
      .exec<{ n: number }>(`SELECT count(*) AS n FROM waitlist WHERE ${live} AND ${SLOT}`, ...slotArgs(slot))
      .one().n;
    const ahead = `SELECT count(*) AS n FROM waitlist WHERE ${live} AND start_ms > ?`;
    return { slot: inSlot, service: this.sql.exec<{ n: number }>(ahead, now).one().n };
  }

  /** The entry as it stands at `now`, with its place in the queue while WAITING. */
  find(id: string, now: number): WaitlistEntry | undefined {
    const row = this.sql.exec<Row>(`${SELECT_ENTRY} FROM waitlist w WHERE id = ?`, now, now, id).toArray()[0];
    return row ? entryOf(row) : undefined;
  }

  /**
   * Entries in queue order (by id), optionally of one status as shown at `now`, and how many
   * match: `offset` entries in, or the `limit + 1` nearest after or before an id (before: nearest
   * first), so the caller knows whether more follow. The id is the primary key: a seek at any depth.
   */
  page(status: WaitlistStatus | undefined, from: WaitlistFrom, limit: number, now: number): WaitlistRows {
    const match = [status ?? null, now, status ?? null] as const;
    const matching = `FROM waitlist w WHERE (? IS NULL OR ${SHOWN_STATUS} = ?)`;
    const select = `${SELECT_ENTRY} ${matching}`;
    const shown = [now, now, ...match] as const;
    const total = this.sql.exec<{ n: number }>(`SELECT count(*) AS n ${matching}`, ...match).one().n;
    const rows =
      from.kind === "offset"
        ? this.sql.exec<Row>(`${select} ORDER BY id LIMIT ? OFFSET ?`, ...shown, limit, from.offset)
        : from.kind === "after"
          ? this.sql.exec<Row>(`${select} AND id > ? ORDER BY id LIMIT ?`, ...shown, from.id, limit + 1)
          : this.sql.exec<Row>(`${select} AND id < ? ORDER BY id DESC LIMIT ?`, ...shown, from.id, limit + 1);
    return { entries: rows.toArray().map(entryOf), total };
  }

  /** Whether any entry still waits for a seat (the check is worth running). */
  hasWaiting(now: number): boolean {
    return (
      this.sql.exec("SELECT 1 FROM waitlist WHERE status = 'WAITING' AND start_ms > ? LIMIT 1", now).toArray().length >
      0
    );
  }

  /** Slots with WAITING entries still ahead, soonest first (at most `limit`). */
  waitingSlots(now: number, limit: number): QueuedSlot[] {
    return this.sql
      .exec<{ start: number; end: number; providerId: string | null }>(
        `SELECT DISTINCT start_ms AS start, end_ms AS end, provider_id AS providerId FROM waitlist
         WHERE status = 'WAITING' AND start_ms > ? ORDER BY start_ms LIMIT ?`,
        now,
        limit,
      )
      .toArray();
  }

  /** The first WAITING entry of a slot, in queue order. */
  next(slot: QueuedSlot): WaitlistEntry | undefined {
    const row = this.sql
      .exec<Row>(
        `SELECT record, status, status AS stored, hold_id, 1 AS position FROM waitlist
         WHERE status = 'WAITING' AND ${SLOT} ORDER BY id LIMIT 1`,
        ...slotArgs(slot),
      )
      .toArray()[0];
    return row ? entryOf(row) : undefined;
  }

  /** Moves an entry to `status` (with its hold or booking); answers the entry as it is now. */
  set(
    id: string,
    status: WaitlistStatus,
    at: string,
    links: { holdId?: string | null; bookingId?: string | null } = {},
  ) {
    const now = Date.parse(at);
    const current = this.find(id, now);
    if (!current) return undefined;
    const next = { ...current, ...links, updatedAt: at };
    this.sql.exec(
      "UPDATE waitlist SET status = ?, hold_id = ?, record = ? WHERE id = ?",
      status,
      next.holdId,
      JSON.stringify(recordOf(next)),
      id,
    );
    return this.find(id, now);
  }

  /** The entry offered `holdId` follows the hold's end: BOOKED when it became a booking, else EXPIRED. */
  holdEnded(holdId: string, status: Exclude<HoldStatus, "HELD">, bookingId: string | null, at: string): void {
    const row = this.sql
      .exec<{ id: string }>("SELECT id FROM waitlist WHERE hold_id = ? AND status = 'OFFERED'", holdId)
      .toArray()[0];
    if (row) this.set(row.id, status === "CONSUMED" ? "BOOKED" : "EXPIRED", at, { bookingId });
  }

  /** Marks a WAITING entry with the hold about to be offered to it (null: none); answers the entry. */
  mark(id: string, holdId: string | null, now: number): WaitlistEntry | undefined {
    this.sql.exec("UPDATE waitlist SET hold_id = ? WHERE id = ? AND status = 'WAITING'", holdId, id);
    const entry = this.find(id, now);
    return entry && { ...entry, holdId };
  }

  /** The hold an entry is marked with (about to be, or being, offered), or null. */
  markedHold(id: string): string | null {
    return (
      this.sql.exec<{ h: string | null }>("SELECT hold_id AS h FROM waitlist WHERE id = ?", id).toArray()[0]?.h ?? null
    );
  }

  /** The business an entry belongs to, and the API key that queued it (its offers' holds count as that key's). */
  ownerOf(id: string): { businessId: string; apiKeyId: string } {
    return this.sql
      .exec<{ businessId: string; apiKeyId: string }>(
        "SELECT business_id AS businessId, api_key_id AS apiKeyId FROM waitlist WHERE id = ?",
        id,
      )
      .one();
  }

  /** What offers place their holds with: the newest service and staffing sent, if any entry ever queued. */
  context(): OfferContext | undefined {
    const row = this.sql.exec<{ context: string }>("SELECT context FROM waitlist_context WHERE id = 1").toArray()[0];
    return row ? (JSON.parse(row.context) as OfferContext) : undefined;
  }

  /** Keeps the newer of the stored context and `context` (by the service's version); answers the one kept. */
  keepContext(context: OfferContext): OfferContext {
    const kept = this.sql
      .exec(
        `INSERT INTO waitlist_context (id, version, context) VALUES (1, ?, ?)
         ON CONFLICT (id) DO UPDATE SET version = excluded.version, context = excluded.context
         WHERE excluded.version >= waitlist_context.version RETURNING id`,
        context.service.version,
        JSON.stringify(context),
      )
      .toArray();
    return kept.length > 0 ? context : (this.context() ?? context);
  }

  /**
   * Carries every WAITING entry to the service's length as it is now, at the same start (and
   * person): a customer waits for the booking at that time, and after a change of
   * `durationMinutes` a hold of the old length could no longer be placed — the entry would wait
   * for ever while later joiners for the same start were offered the seat. Its place in the line
   * (its id) stays; OFFERED entries keep the hold they were given, and entries whose slot has
   * begun (EXPIRED as read) stay as they ended.
   */
  fitLength(durationMinutes: number, at: string): void {
    const length = durationMinutes * 60_000;
    const rows = this.sql
      .exec<{ id: string; start: number; record: string }>(
        `SELECT id, start_ms AS start, record FROM waitlist
         WHERE status = 'WAITING' AND start_ms > ? AND end_ms - start_ms <> ?`,
        Date.parse(at),
        length,
      )
      .toArray();
    for (const { id, start, record } of rows) {
      const endTime = new Date(start + length).toISOString();
      this.sql.exec(
        "UPDATE waitlist SET end_ms = ?, record = ? WHERE id = ?",
        start + length,
        JSON.stringify({ ...JSON.parse(record), endTime, updatedAt: at }),
        id,
      );
    }
  }

  /**
   * Rewrites a customer's details in the entries with this e-mail (an edit, or an erasure); an
   * erasure also scrubs the `waitlist.offered` events that still wait here for D1 or the queue.
   */
  rewrite(email: string, details: { customerName: string; customerEmail: string }, erase: boolean): void {
    const args = [details.customerName, details.customerEmail, email] as const;
    this.sql.exec(
      `UPDATE waitlist SET record = json_set(record, '$.customerName', ?, '$.customerEmail', ?)
       WHERE lower(json_extract(record, '$.customerEmail')) = ?`,
      ...args,
    );
    if (!erase) return;
    this.sql.exec(
      `UPDATE events SET payload = json_set(payload, '$.data.customerName', ?, '$.data.customerEmail', ?)
       WHERE type = 'waitlist.offered' AND lower(json_extract(payload, '$.data.customerEmail')) = ?`,
      ...args,
    );
  }
}
