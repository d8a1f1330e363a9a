/**
 * Joining and leaving a slot's waitlist, each in one transaction of the service's calendar:
 * the slot is checked by the service's rules, the queues are bounded, and leaving an entry that
 * was offered a hold releases the hold (its seat goes to the next in line).
 */

import type { AuditRow } from "../../../audit/record";
import type { Author } from "../../../types/actor";
import type { WaitlistEntry } from "../../../types/waitlist";
import { statusChangeRecord } from "../../audit-outbox";
import { checkRequest } from "../../rules/service-rules";
import type { CalendarRefusal, JoinWaitlistCommand } from "../../types";
import type { CalendarTables } from "../tables/tables";
import { MAX_PER_SERVICE, MAX_PER_SLOT } from "../tables/waitlist";
import { expireHolds } from "./expiry";
import { releaseLiveHold } from "./hold-end";

export type JoinResult = { ok: true; entry: WaitlistEntry } | { ok: false; refusal: CalendarRefusal };

/** Queues the entry at the end of its slot's line. */
export function joinQueue(tables: CalendarTables, command: JoinWaitlistCommand, now: number): JoinResult {
  const { service, entry } = command;
  expireHolds(tables, now);
  const stale = tables.serviceVersion.stale(service.version, now);
  if (stale) return { ok: false, refusal: stale };
  const start = Date.parse(entry.startTime);
  const end = Date.parse(entry.endTime);
  const violation = checkRequest(service, start, end, now);
  if (violation?.kind === "invalid") return { ok: false, refusal: { code: "validation_failed", ...violation } };
  if (violation) {
    return { ok: false, refusal: { code: "slot_unavailable", reason: violation.reason, detail: violation.detail } };
  }
  const queued = tables.waitlist.queued({ start, end, providerId: entry.providerId }, now);
  if (queued.slot >= MAX_PER_SLOT || queued.service >= MAX_PER_SERVICE) {
    const detail =
      queued.slot >= MAX_PER_SLOT
        ? `This slot's waitlist is full (${MAX_PER_SLOT} entries).`
        : `This service's waitlists are full (${MAX_PER_SERVICE} entries).`;
    return { ok: false, refusal: { code: "waitlist_full", detail } };
  }
  tables.waitlist.keepContext({ service, providers: command.providers ?? [], resources: command.resources ?? [] });
  tables.waitlist.add({ businessId: service.businessId, apiKeyId: command.apiKeyId }, entry);
  return { ok: true, entry: tables.waitlist.find(entry.id, now) as WaitlistEntry };
}

/**
 * Takes an entry off the waitlist: CANCELLED, its offered hold released. Answers the entry
 * (unchanged once final, which a WAITING entry is once its slot has begun: EXPIRED).
 */
export function leaveQueue(tables: CalendarTables, id: string, now: number, by: Author): WaitlistEntry | undefined {
  const entry = tables.waitlist.find(id, now);
  if (!entry || (entry.status !== "WAITING" && entry.status !== "OFFERED")) return entry;
  const at = new Date(now).toISOString();
  // Cancelled first, so the hold's release does not mark it EXPIRED.
  const left = tables.waitlist.set(id, "CANCELLED", at, { holdId: entry.holdId });
  if (entry.status === "OFFERED" && entry.holdId) releaseLiveHold(tables, entry.holdId, now);
  // Its record stays here, in this transaction, until D1 has it (src/calendar/audit-outbox.ts).
  tables.audit.keep(leftRecord(by, id, now), now);
  return left;
}

/** The `waitlist.left` record of an entry cancelled at `leftAt` (ms). */
const leftRecord = (by: Author, id: string, leftAt: number): AuditRow =>
  statusChangeRecord(by, "waitlist.left", { type: "waitlist", id }, leftAt);
