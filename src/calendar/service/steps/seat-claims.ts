/**
 * This service's seats as a claimed calendar: a visit's segment in this service is claimed by
 * the visit's entry (another service's calendar, or this one), like a person's time. The claim
 * takes the seat in a `segment` row that is not a booking yet and never lapses by itself; the
 * entry either confirms it (the row becomes the booking: D1, event, reminders) or releases it
 * (the row goes, and a tombstone refuses a late duplicate). Each is one synchronous transaction.
 */
import type { Actor } from "../../../types/actor";
import type { ClaimResult, SeatCommand } from "../../claim-types";
import { newBookingRefusal } from "../../limits/service-checks";
import { blockedSpan, checkTiming, checkWorkingHours, withinWorkingTime } from "../../rules/service-rules";
import type { CalendarTables } from "../tables/tables";
import { firstWithSeat } from "./candidates";
import { commitBooking } from "./commit-booking";
import { expireHolds } from "./expiry";

/**
 * What a segment's confirmation carries: the claim, the service's reminders to plan, and who
 * booked the visit (the audit names them on this segment too; absent, from before: the system).
 */
export type SeatConfirmation = { claimId: string; reminders: number[]; actor?: Actor };

/** Decides a seat claim; the row holds the seat from this transaction on. */
export function claimSeat(tables: CalendarTables, command: SeatCommand, now: number): ClaimResult {
  const { record, service } = command;
  if (tables.releasedClaims.has(command.claimId)) {
    return { ok: false, reason: "fully_booked", detail: "This claim was released; use a new claim id." };
  }
  if (tables.reservations.find(command.claimId)) return { ok: true, replayed: true };
  expireHolds(tables, now);
  if (tables.serviceVersion.stale(service.version, now)) {
    return { ok: false, reason: "fully_booked", detail: "The service changed while the visit was decided. Retry." };
  }
  const start = Date.parse(record.startTime);
  const end = Date.parse(record.endTime);
  const timing = checkTiming(service, start, end, now);
  if (timing) return { ok: false, reason: "outside_working_hours", detail: timing.detail };
  const hours = command.onGrid ? checkWorkingHours(service, start) : !withinWorkingTime(service, start, end);
  if (hours) {
    return {
      ok: false,
      reason: "outside_working_hours",
      detail: "The segment's time is not inside the service's working hours.",
    };
  }
  // Earlier segments of the same visit here are rows already: they count.
  const limit = newBookingRefusal(tables.counts, service, { start, email: record.customerEmail }, now);
  if (limit) return { ok: false, reason: "limit_reached", detail: limit.detail };
  const blocked = blockedSpan(service, start, end);
  const seat = firstWithSeat(
    tables.reservations.seats,
    service,
    [{ providerId: command.providerId, providers: [], resources: [] }],
    blocked,
    [],
    command.alongside,
  );
  if (!seat) return { ok: false, reason: "fully_booked", detail: "This slot (or session) is fully booked." };
  tables.reservations.insert(record, blocked, { claims: command.claims, tentativeUntil: null }, "segment");
  return { ok: true, replayed: false };
}

/** The entry confirmed: the segment row is a booking from now on. Answers whether there was one. */
export function confirmSeat(tables: CalendarTables, { claimId, reminders, actor }: SeatConfirmation, now: number) {
  if (!tables.reservations.promoteSegment(claimId)) return { ok: tables.reservations.find(claimId) !== undefined };
  const record = tables.reservations.load(claimId);
  commitBooking(tables, record, { service: { reminders }, actor }, now);
  return { ok: true };
}

/** The entry gave up: the segment row goes (if it is still one) and the claim id is spent. */
export function releaseSeat(tables: CalendarTables, claimId: string, now: number): { released: boolean } {
  tables.releasedClaims.add(claimId, now);
  return { released: tables.reservations.removeSegment(claimId) };
}
