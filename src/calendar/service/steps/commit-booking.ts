/**
 * The one booking path: how every new booking is built — plain, with people, from a hold, by
 * import — and how it is committed: its outbox entry (D1 is written behind), its webhook event
 * and its idempotency record, in the caller's transaction. A feature that needs more calendars
 * adds a claim before the commit, not a copy of it.
 */

import { newId } from "../../../lib/ids";
import type { Actor } from "../../../types/actor";
import { type BookingRecord, toBooking } from "../../../types/booking";
import type { MailPlan } from "../../../types/message";
import type { BookingDraft, CalendarResult, IdempotencyKey, ServiceSnapshot } from "../../types";
import type { CalendarTables } from "../tables/tables";

/** Who performs a booking and what it takes: the one person (or null), all people, all resources. */
export type AssigneeIds = { providerId: string | null; providerIds: string[]; resourceIds: string[] };

/** The assignees of a candidate. */
export const assigneeIdsOf = (candidate: {
  providerId: string | null;
  providers: { id: string }[];
  resources: { id: string }[];
}): AssigneeIds => ({
  providerId: candidate.providerId,
  providerIds: candidate.providers.map((p) => p.id),
  resourceIds: candidate.resources.map((r) => r.id),
});

/** A new booking of `service` at `[start, end)`: CONFIRMED, or PENDING when the service confirms by hand. */
export function buildBooking(
  service: ServiceSnapshot,
  draft: BookingDraft,
  at: {
    start: number;
    end: number;
    /** Who performs it, and everyone and everything it claims (see `staffedBy`). */
    assignees: AssigneeIds;
    customerId: string | null;
    holdId?: string;
    /** The visit it is a segment of, or the series it is an occurrence of. */
    appointmentId?: string;
    seriesId?: string;
  },
  now: number,
): BookingRecord {
  const createdAt = new Date(now).toISOString();
  return {
    id: newId("booking", now),
    businessId: service.businessId,
    serviceId: service.id,
    ...at.assignees,
    customerId: at.customerId ?? newId("customer", now),
    customerName: draft.customerName,
    customerEmail: draft.customerEmail,
    customerPhone: draft.customerPhone,
    startTime: new Date(at.start).toISOString(),
    endTime: new Date(at.end).toISOString(),
    notes: draft.notes,
    ...(draft.answers && Object.keys(draft.answers).length > 0 ? { answers: draft.answers } : {}),
    status: service.requiresConfirmation ? "PENDING" : "CONFIRMED",
    version: 1,
    createdAt,
    updatedAt: createdAt,
    cancelledAt: null,
    cancellationReason: null,
    ...(at.holdId ? { holdId: at.holdId } : {}),
    ...(at.appointmentId ? { appointmentId: at.appointmentId } : {}),
    ...(at.seriesId ? { seriesId: at.seriesId } : {}),
  };
}

/**
 * Commits a booking whose row holds its seat: queued for D1, its `booking.created` event raised
 * (with its confirmation, unless imported or `mail` says otherwise), its reminders planned, its
 * `Idempotency-Key` remembered. Inside the caller's transaction.
 */
export function commitBooking(
  tables: CalendarTables,
  record: BookingRecord,
  {
    idempotency,
    service,
    imported,
    mail,
    actor,
  }: {
    idempotency?: IdempotencyKey;
    imported?: boolean;
    service: { reminders?: number[] };
    mail?: MailPlan;
    actor?: Actor;
  },
  now: number,
): CalendarResult {
  tables.outbox.enqueue(record.id, record.version, now);
  tables.events.raise(null, record, record.createdAt, imported ? null : mail, { actor });
  tables.reminders.plan(record, service.reminders ?? [], now);
  tables.idempotency.remember(idempotency, record.id, now);
  return { ok: true, booking: toBooking(record), version: record.version, replayed: false };
}
