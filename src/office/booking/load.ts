/**
 * What a booking's page shows, each part read by the function the API's operation uses, after
 * the same role check: the booking with its conflicts (`GET /bookings/{id}`), its messages (`GET
 * /bookings/{id}/messages`), its history (`GET /audit-events?resourceId=`) and free times to move
 * it to (`GET /services/{id}/availability`). A part the member's
 * role may not read through the API is left off the page, not shown another way.
 */
import { and, eq, inArray } from "drizzle-orm";
import { membersDb } from "../../access/members";
import { auditPage } from "../../audit/list";
import { loadWithConflicts } from "../../bookings/conflicts";
import { apiKeys, members, providers, resources, services } from "../../db/schema";
import { ApiError } from "../../lib/api-error";
import { messagePage } from "../../messages/records";
import { loadVisit } from "../../visits/records";
import { authorise, may } from "../frame/authorise";
import type { DeskContext } from "../frame/desk";
import { freeTimes } from "./move";

/** How many messages and history entries the page lists (the newest history first). */
const SHOWN = 50;

/** Names by id from one table of the business (at most a booking's few ids). */
async function namesOf(c: DeskContext, table: typeof providers | typeof resources, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await c.var.db
    .select({ id: table.id, name: table.name })
    .from(table)
    .where(and(eq(table.businessId, c.var.caller.businessId), inArray(table.id, ids)));
  return ids.map((id) => rows.find((row) => row.id === id)?.name ?? id);
}

/** Who the history's actors are: members by name, keys by their name (the directory holds both). */
async function actorNames(c: DeskContext, ids: string[]) {
  const names = new Map<string, string>();
  if (ids.length === 0) return names;
  const dir = membersDb(c.env);
  const { businessId } = c.var.caller;
  const [people, keys] = await dir.batch([
    dir
      .select({ id: members.id, name: members.name })
      .from(members)
      .where(and(eq(members.businessId, businessId), inArray(members.id, ids))),
    dir
      .select({ id: apiKeys.id, name: apiKeys.name })
      .from(apiKeys)
      .where(and(eq(apiKeys.businessId, businessId), inArray(apiKeys.id, ids))),
  ]);
  for (const row of [...people, ...keys]) if (row.name) names.set(row.id, row.name);
  return names;
}

/**
 * The visit the booking is a segment of (`GET /appointments/{id}`), each segment with its
 * service's name; undefined for a booking on its own or a member who may not read visits.
 */
async function visitOf(c: DeskContext, appointmentId: string | null) {
  if (!appointmentId || !(await may(c, "bookings:read", "GET /appointments/:id", appointmentId))) return undefined;
  const visit = await loadVisit(c.var.db, c.var.caller.businessId, appointmentId);
  const ids = [...new Set(visit.bookings.map((b) => b.serviceId))];
  const names = await c.var.db
    .select({ id: services.id, name: services.name })
    .from(services)
    .where(and(eq(services.businessId, c.var.caller.businessId), inArray(services.id, ids)));
  return visit.bookings.map((b) => ({
    id: b.id,
    startTime: b.startTime,
    endTime: b.endTime,
    status: b.status,
    service: names.find((n) => n.id === b.serviceId)?.name ?? b.serviceId,
  }));
}

/** The booking's page: a 404 (thrown) when it is not the business's, or not the staff member's own. */
export async function loadBookingView(c: DeskContext, id: string, moveDay?: string) {
  const { businessId } = c.var.caller;
  if (id.length > 64) throw new ApiError("not_found", `No booking ${id.slice(0, 64)}.`);
  await authorise(c, "bookings:read", "GET /bookings/:id", id);
  const { row, booking } = await loadWithConflicts(c.var.db, businessId, id);
  const [service] = await c.var.db
    .select({ name: services.name, questions: services.questions })
    .from(services)
    .where(and(eq(services.businessId, businessId), eq(services.id, booking.serviceId)));
  const [people, rooms] = await Promise.all([
    namesOf(c, providers, booking.providerIds),
    namesOf(c, resources, booking.resourceIds),
  ]);
  const messages = (await may(c, "bookings:read", "GET /bookings/:id/messages", id))
    ? (await messagePage(c.var.db, businessId, id, { page: 1, limit: SHOWN })).items
    : undefined;
  const history = (await may(c, "business:write", "GET /audit-events"))
    ? (await auditPage(c.var.db, businessId, { page: 1, limit: SHOWN, resourceId: id })).items
    : undefined;
  const actors = await actorNames(c, [...new Set((history ?? []).map((event) => event.actor.id))]);
  // Moving needs the free times, which the API lets the member read only with `catalog:read`.
  const open = booking.status === "PENDING" || booking.status === "CONFIRMED";
  const canMove =
    open &&
    (await may(c, "catalog:read", "GET /services/:id/availability", booking.serviceId)) &&
    (await may(c, "bookings:write", "POST /bookings/:id/reschedule", id));
  const times = canMove ? await freeTimes(c, booking, moveDay) : undefined;
  const visit = await visitOf(c, booking.appointmentId);
  return { booking, version: row.version, service, people, rooms, messages, history, actors, canMove, times, visit };
}

export type BookingView = Awaited<ReturnType<typeof loadBookingView>>;
