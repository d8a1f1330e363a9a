/**
 * A message's steps in D1, each one statement: leased by one consumer at a time and
 * counted against its business's hour in the same statement, then settled as sent, failed or
 * left queued for a retry. A lease that finds the hour full fails the message instead.
 */
import type { MessageRow } from "./records";

/** How long a lease holds a message: longer than a send may take (`SEND_TIMEOUT_MS`), so one consumer sends it at a time. */
export const LEASE_MS = 60_000;

/** The business's messages per clock hour, unless `EMAIL_HOURLY_LIMIT` says otherwise. */
export const DEFAULT_HOURLY_LIMIT = 300;

/** The hourly number of messages per business: `EMAIL_HOURLY_LIMIT` (a positive integer), else the default. */
export function hourlyLimit(env: Pick<Env, "EMAIL_HOURLY_LIMIT">): number {
  const value = Number(env.EMAIL_HOURLY_LIMIT);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_HOURLY_LIMIT;
}

/** The clock hour (UTC) of an instant, as the `hour` column keeps it: `2026-12-01T10`. */
export const hourOf = (ms: number) => new Date(ms).toISOString().slice(0, 13);

/** What a lease answers of the message: what building and sending it need. */
export type Leased = Pick<
  MessageRow,
  "id" | "businessId" | "bookingId" | "groupId" | "eventId" | "kind" | "recipient"
> & {
  plan: MessageRow["plan"];
};

/** The leased row's columns, named as `Leased` names them (the plan is JSON text until parsed). */
const leasedColumns =
  "id, business_id AS businessId, booking_id AS bookingId, group_id AS groupId, event_id AS eventId, kind, recipient, plan";

/** The ids of the event's messages still queued. */
export async function queuedOf(d1: D1Database, eventId: string): Promise<string[]> {
  const { results } = await d1
    .prepare("SELECT id FROM messages WHERE event_id = ? AND status = 'queued' ORDER BY id")
    .bind(eventId)
    .all<{ id: string }>();
  return results.map((r) => r.id);
}

/** The business's count of messages first tried in `hour`, as the lease compares it. */
const countedInHour = "(SELECT count(*) FROM messages m WHERE m.business_id = messages.business_id AND m.hour = ?2)";

/**
 * Leases a queued message for one send: free (no lease, or a lapsed one), and counted against
 * this hour unless an earlier attempt counted it — while the business has fewer than `limit`
 * this hour. Check and count are one statement, so a burst never passes the limit.
 * Answers the leased row, or undefined.
 */
export async function takeLease(d1: D1Database, id: string, now: number, limit: number): Promise<Leased | undefined> {
  const at = new Date(now).toISOString();
  const row = await d1
    .prepare(
      `UPDATE messages SET attempts = attempts + 1, lease_until = ?1, hour = coalesce(hour, ?2), updated_at = ?3
       WHERE id = ?4 AND status = 'queued' AND (lease_until IS NULL OR lease_until < ?3)
         AND (hour IS NOT NULL OR ${countedInHour} < ?5)
       RETURNING ${leasedColumns}`,
    )
    .bind(new Date(now + LEASE_MS).toISOString(), hourOf(now), at, id, limit)
    .first<Leased & { plan: string }>();
  return row ? { ...row, plan: JSON.parse(row.plan) } : undefined;
}

/**
 * After a lease found nothing: fails the message if the reason was the full hour (it is queued,
 * free, never counted, and the hour is at `limit`). Answers whether it did.
 */
export async function failOverLimit(d1: D1Database, id: string, now: number, limit: number): Promise<boolean> {
  const at = new Date(now).toISOString();
  const row = await d1
    .prepare(
      `UPDATE messages SET status = 'failed', reason = 'hourly_limit', updated_at = ?3
       WHERE id = ?4 AND status = 'queued' AND hour IS NULL AND (lease_until IS NULL OR lease_until < ?3)
         AND ${countedInHour} >= ?5
       RETURNING id`,
    )
    .bind(null, hourOf(now), at, id, limit)
    .first();
  return row !== null;
}

/** How a send ended. */
export type SendOutcome =
  | { kind: "sent"; messageIdHeader: string }
  | { kind: "failed"; reason: "refused" | "erased" | "disabled" | "no_sender" | "gave_up"; detail?: string }
  | { kind: "retry"; detail: string };

/**
 * Settles a leased message: sent, failed, or queued again (its lease given back, for the
 * queue's retry). Only a message still queued is settled, so a late settle changes nothing.
 */
export async function settleMessage(
  d1: D1Database,
  id: string,
  subject: string | null,
  outcome: SendOutcome,
  now: number,
) {
  const at = new Date(now).toISOString();
  const statement =
    outcome.kind === "sent"
      ? d1
          .prepare(
            "UPDATE messages SET status = 'sent', sent_at = ?1, message_id_header = ?2, subject = coalesce(?3, subject), lease_until = NULL, detail = NULL, updated_at = ?1 WHERE id = ?4 AND status = 'queued'",
          )
          .bind(at, outcome.messageIdHeader, subject, id)
      : outcome.kind === "failed"
        ? d1
            .prepare(
              "UPDATE messages SET status = 'failed', reason = ?2, detail = ?3, subject = coalesce(?4, subject), lease_until = NULL, updated_at = ?1 WHERE id = ?5 AND status = 'queued'",
            )
            .bind(at, outcome.reason, outcome.detail?.slice(0, 500) ?? null, subject, id)
        : d1
            .prepare(
              "UPDATE messages SET detail = ?2, subject = coalesce(?3, subject), lease_until = NULL, updated_at = ?1 WHERE id = ?4 AND status = 'queued'",
            )
            .bind(at, outcome.detail.slice(0, 500), subject, id);
  await statement.run();
}

/** The queue gave up on an event: its messages still queued fail (`gave_up`). */
export async function giveUp(d1: D1Database, eventId: string, now: number): Promise<string[]> {
  const at = new Date(now).toISOString();
  const { results } = await d1
    .prepare(
      `UPDATE messages SET status = 'failed', reason = 'gave_up', lease_until = NULL, updated_at = ?1,
         detail = coalesce(detail, 'Every retry failed.')
       WHERE event_id = ?2 AND status = 'queued' RETURNING id`,
    )
    .bind(at, eventId)
    .all<{ id: string }>();
  return results.map((r) => r.id);
}
