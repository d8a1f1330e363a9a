/**
 * Customer edits and erasure inside a service's calendar: the calendar keeps a copy of each
 * booking (with the customer's name, e-mail, phone and the notes) and of the webhook events not
 * yet handed on. Pure SQL on the calendar's storage, run inside one `transactionSync`.
 */
import { type CustomerDetails, isErasedEmail } from "../../../types/erasure";
import type { Outbox } from "../../d1/outbox";
import type { StoredBooking } from "../../d1/persist";

// Until the calendar's face takes them from src/types/erasure.ts.
export { type CustomerDetails, erasedDetails, isErasedEmail } from "../../../types/erasure";

/** Which bookings belong to the person, and what they become. */
export type CustomerRewrite = {
  customerId: string;
  /**
   * The customer's e-mail, lower-cased, before the change: it also finds bookings whose customer
   * id the calendar has not learned from D1 yet (their D1 write is still pending).
   */
  email: string;
  /** Matching by e-mail covers only bookings created before this instant (RFC 3339). */
  before: string;
  details: CustomerDetails;
  /** Erasure: notes and cancellation reasons are cleared and queued webhook payloads scrubbed too. */
  erase: boolean;
};

/**
 * Rewrites every booking of the customer: a new version of each, queued in the outbox so D1
 * converges to it even when an older version is still waiting there. An edit never touches a
 * booking that was erased meanwhile. Returns the ids of the bookings that changed.
 */
export function rewriteCustomer(
  sql: SqlStorage,
  outbox: Outbox,
  command: CustomerRewrite,
  now: number,
): { bookingIds: string[] } {
  const at = new Date(now).toISOString();
  const rows = sql
    .exec<{ id: string; record: string }>(
      `SELECT id, record FROM bookings
       WHERE json_extract(record, '$.customerId') = ?
          OR (lower(json_extract(record, '$.customerEmail')) = ? AND json_extract(record, '$.createdAt') < ?)`,
      command.customerId,
      command.email,
      command.before,
    )
    .toArray();
  const bookingIds: string[] = [];
  for (const row of rows) {
    const current = JSON.parse(row.record) as StoredBooking;
    if (!command.erase && isErasedEmail(current.customerEmail)) continue;
    const next: StoredBooking = { ...current, customerId: command.customerId, ...command.details };
    if (command.erase) {
      next.notes = null;
      if (next.answers) next.answers = {};
      next.cancellationReason = null;
    }
    if (JSON.stringify(next) === row.record) continue;
    next.version = current.version + 1;
    next.updatedAt = at;
    sql.exec("UPDATE bookings SET version = ?, record = ? WHERE id = ?", next.version, JSON.stringify(next), next.id);
    outbox.enqueue(next.id, next.version, now);
    bookingIds.push(next.id);
  }
  if (command.erase) scrubEvents(sql, command.details, bookingIds);
  return { bookingIds };
}

/** Replaces the person's details in the events of these bookings that wait here for D1 or the queue. */
function scrubEvents(sql: SqlStorage, details: CustomerDetails, bookingIds: string[]): void {
  // A reminder carries its booking one level down.
  for (const root of ["$.data", "$.data.booking"]) {
    for (const id of bookingIds) {
      sql.exec(
        `UPDATE events SET payload = json_set(payload,
           '${root}.customerName', ?, '${root}.customerEmail', ?, '${root}.customerPhone', ?,
           '${root}.notes', NULL, '${root}.cancellationReason', NULL, '${root}.answers', json('{}'))
         WHERE json_extract(payload, '${root}.id') = ?`,
        details.customerName,
        details.customerEmail,
        details.customerPhone,
        id,
      );
    }
  }
}
