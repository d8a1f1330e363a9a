/**
 * How a hold ends before its expiry, each in one transaction: booked (`POST /bookings` with
 * `holdId`: found, checked against the fields sent beside it, and its seat handed to the booking
 * with nothing free in between), or released (`DELETE /holds/{id}`, a waitlist entry left).
 */
import type { Author } from "../../../types/actor";
import type { Hold } from "../../../types/hold";
import { statusChangeRecord } from "../../audit-outbox";
import { type ClaimRef, sessionOf } from "../../claim-types";
import { customerRefusal } from "../../limits/service-checks";
import type { CalendarResult, HoldBookingCommand, HoldToBook } from "../../types";
import { priorAnswer } from "../tables/idempotency-records";
import type { CalendarTables } from "../tables/tables";
import { type AssigneeIds, buildBooking, commitBooking } from "./commit-booking";
import { expireHolds } from "./expiry";

/** The assignees of a hold's booking, from what its seat claims. */
function assigneeIdsOfClaims(providerId: string | null, claims: ClaimRef[]): AssigneeIds {
  const ids = (calendar: ClaimRef["calendar"]) => claims.filter((c) => c.calendar === calendar).map((c) => c.id);
  return { providerId, providerIds: ids("provider"), resourceIds: ids("resource") };
}

/** The fields sent beside a hold's id that differ from the hold's (instants compared as instants). */
function disagreements(hold: Hold, sent: HoldToBook["sent"]): { path: string; message: string }[] {
  const held = { ...hold, providerId: hold.providerId ?? undefined };
  return (["serviceId", "startTime", "endTime", "providerId"] as const).flatMap((field) => {
    const value = sent[field];
    const same =
      field.endsWith("Time") && value ? Date.parse(value) === Date.parse(held[field] ?? "") : value === held[field];
    return value === undefined || same ? [] : [{ path: field, message: "Differs from the hold's." }];
  });
}

/**
 * Turns a live hold into a booking in one transaction: the hold is found and the request's fields
 * checked against it, then the hold's seat row goes and the booking's comes over the same span
 * with the same claims, so nothing is free in between; each claim is then confirmed without its
 * expiry.
 */
export function consumeHold(tables: CalendarTables, command: HoldBookingCommand, now: number): CalendarResult {
  const { id } = command.hold;
  const found = tables.holds.find(id, now);
  if (!found) return { ok: false, refusal: { code: "no_such_hold", detail: `No hold ${id}.` } };
  const errors = disagreements(found, command.hold.sent);
  if (errors.length > 0) {
    return { ok: false, refusal: { code: "hold_mismatch", detail: "The request disagrees with the hold.", errors } };
  }
  // A conversion whose answer was lost is answered again, not refused as a consumed hold.
  const prior = priorAnswer(tables, command.idempotency, now);
  if (prior) return prior;
  expireHolds(tables, now);
  const hold = tables.holds.find(id, now);
  const seat = hold?.status === "HELD" ? tables.holds.seat(id) : undefined;
  if (!hold || !seat) {
    const detail = hold ? `The hold is ${hold.status}.` : "No live hold with this id.";
    return { ok: false, refusal: { code: "hold_expired", detail } };
  }
  const { service } = command;
  // The hold counted against the day and the week; the customer is known only now.
  const limit = customerRefusal(tables.counts, service, command.booking.customerEmail, now);
  if (limit) return { ok: false, refusal: limit };
  const start = Date.parse(hold.startTime);
  const end = Date.parse(hold.endTime);
  const record = buildBooking(
    service,
    command.booking,
    {
      start,
      end,
      assignees: assigneeIdsOfClaims(hold.providerId, seat.claims),
      customerId: command.customerId,
      holdId: hold.id,
    },
    now,
  );
  const claims = tables.holds.end(hold.id, "CONSUMED", record.id);
  tables.waitlist.holdEnded(hold.id, "CONSUMED", record.id, new Date(now).toISOString());
  tables.reservations.insert(record, seat.blocked, { claims, tentativeUntil: null });
  const result = commitBooking(tables, record, command, now);
  // The people keep the hold's claims for the booking, even those who left the service meanwhile.
  const providers = seat.claims.filter((c) => c.calendar === "provider").map((c) => c.id);
  const span = { serviceId: service.id, start, end, blockedStart: seat.blocked.start, blockedEnd: seat.blocked.end };
  for (const claim of claims) {
    const session = sessionOf(claim.calendar, service.id, start, providers);
    tables.tasks.confirm(
      service.businessId,
      claim,
      { ...span, claimId: claim.claimId, session, capacity: service.capacity, bookingId: record.id },
      now,
    );
  }
  return result;
}

/**
 * Releases a live hold: its seat is free in this transaction and its claims are owed releases;
 * with `by`, its `hold.released` record is kept here too until D1 has it. Answers the hold as it ends.
 */
export function releaseLiveHold(tables: CalendarTables, id: string, now: number, by?: Author): Hold | null {
  expireHolds(tables, now);
  const current = tables.holds.find(id, now);
  if (current?.status !== "HELD") return current ?? null;
  const seat = tables.holds.seat(id);
  const claims = tables.holds.end(id, "RELEASED");
  if (seat) tables.tasks.release(seat.businessId, claims, now);
  if (by) tables.audit.keep(statusChangeRecord(by, "hold.released", { type: "hold", id }, now), now);
  tables.waitlist.holdEnded(id, "RELEASED", null, new Date(now).toISOString());
  return tables.holds.find(id, now) ?? null;
}
