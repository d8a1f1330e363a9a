/**
 * Joining a waitlist: the service must be the business's and active, a `providerId` one who
 * performs it, the slot full (a free one is a 409 `slot_available`: book it), and the key under
 * its daily bound; the entry is then queued in the service's calendar, which decides its place.
 */
import { eq } from "drizzle-orm";
import { actorOf } from "../access/actor";
import { creationAuditId, fieldsOf } from "../audit/record";
import { serviceCalendarOf, slotCalendar } from "../calendar";
import type { Database } from "../db/client";
import { auditEvents, waitlistEntries } from "../db/schema";
import type { Caller } from "../env";
import { ApiError } from "../lib/api-error";
import { newId } from "../lib/ids";
import { throwRefusal } from "../refusals";
import { loadBookableService } from "../services/bookable";
import type { WaitlistEntry } from "../types/waitlist";
import { MAX_PER_KEY_PER_DAY, storeWithinKeyBound } from "./records";

export type JoinRequest = {
  serviceId: string;
  providerId?: string;
  startTime: string;
  endTime: string;
  customerName: string;
  customerEmail: string;
};

/**
 * Queues the request; answers the entry (WAITING with its position, or OFFERED when a seat was
 * free after all). Its `waitlist.joined` record is written with its D1 row (field names only) and
 * taken back with it if the calendar refuses.
 */
export async function joinWaitlist(
  env: Env,
  db: Database,
  caller: Pick<Caller, "businessId" | "keyId" | "member">,
  request: JoinRequest,
): Promise<WaitlistEntry> {
  const { service, providers, resources } = await loadBookableService(db, caller.businessId, request.serviceId, {
    providerId: request.providerId,
  });
  const start = Date.parse(request.startTime);
  // A team's slot needs every person; otherwise the one asked for, or anyone.
  const team = service.providerMode === "all";
  const asked = request.providerId && !team ? providers.filter((p) => p.id === request.providerId) : providers;
  const [slot] = await slotCalendar(env, service, start, start + 1, {
    providers: asked.length > 0 ? asked : undefined,
    resources,
  });
  if (slot && Date.parse(slot.startTime) === start && slot.bookable) {
    throw new ApiError("slot_available", "This slot has a free seat: book it instead.");
  }
  const now = new Date().toISOString();
  const entry: WaitlistEntry = {
    id: newId("waitlist"),
    serviceId: service.id,
    providerId: request.providerId ?? null,
    startTime: new Date(start).toISOString(),
    endTime: new Date(Date.parse(request.endTime)).toISOString(),
    customerName: request.customerName,
    customerEmail: request.customerEmail,
    status: "WAITING",
    position: null,
    holdId: null,
    bookingId: null,
    createdAt: now,
    updatedAt: now,
  };
  // D1 first, within the key's bound: the entry can be found (and counts against the key) as
  // soon as it exists, and its place is given back if the calendar refuses it.
  const row = {
    id: entry.id,
    businessId: caller.businessId,
    serviceId: service.id,
    apiKeyId: caller.keyId,
    createdAt: now,
  };
  const record = {
    id: creationAuditId(entry.id),
    businessId: caller.businessId,
    actor: actorOf(caller),
    action: "waitlist.joined",
    resource: { type: "waitlist", id: entry.id },
    fields: fieldsOf(request),
  };
  if (!(await storeWithinKeyBound(db, row, record))) {
    throw new ApiError("waitlist_full", `This API key queued ${MAX_PER_KEY_PER_DAY} entries in the last 24 hours.`);
  }
  const result = await serviceCalendarOf(env, caller.businessId, service.id).joinWaitlist({
    service,
    providers,
    resources,
    providerId: request.providerId,
    entry,
    apiKeyId: caller.keyId,
  });
  if (result.ok) return result.entry;
  await db.batch([
    db.delete(waitlistEntries).where(eq(waitlistEntries.id, entry.id)),
    db.delete(auditEvents).where(eq(auditEvents.id, record.id)),
  ]);
  throwRefusal(result.refusal);
}
