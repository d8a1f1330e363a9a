/** The catalog's rows: a service by id, a new service, a page of the catalog, and the public shape. */

import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import { fieldsOf, recordQuery } from "../audit/record";
import type { Database } from "../db/client";
import { bind, preparedOnce, type ReadBatch } from "../db/prepared";
import { type ServiceRow, serviceProviders, serviceResources, services } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { newId } from "../lib/ids";
import { loadOwned } from "../lib/rows";
import { offsetOf, type PageRequest } from "../lists/pagination";
import { shownLimits } from "../schemas/limits";
import type { Actor } from "../types/actor";
import { assertAssignable, assignedIdsOf, insertAssignments } from "./assignments";

/** Who performs a service and what its bookings take: provider and resource ids. */
export type ServiceAssignments = { providerIds: string[]; resourceIds: string[] };

/** A service's own settings, as a client writes them. */
export type ServiceFields = Omit<ServiceRow, "id" | "businessId" | "createdAt" | "updatedAt" | "version">;

/** The business's service with this id, or a 404 that does not tell other tenants' ids apart. */
export const loadService = (db: Database, businessId: string, id: string): Promise<ServiceRow> =>
  loadOwned(db, services, "service", businessId, id);

/** The business a service belongs to, for the operator, who names services of any business; or a 404. */
export async function ownerOfService(db: Database, serviceId: string): Promise<string> {
  const [row] = await db
    .select({ businessId: services.businessId })
    .from(services)
    .where(eq(services.id, serviceId))
    .limit(1);
  if (!row) throw new ApiError("not_found", `No service ${serviceId}.`);
  return row.businessId;
}

/** The public shape of a stored service, the providers who perform it and the resources it needs. */
export function toService(
  { businessId: _businessId, version: _version, ...service }: ServiceRow,
  { providerIds, resourceIds }: ServiceAssignments,
) {
  return {
    ...service,
    limits: shownLimits(["perDay", "perWeek"], service.limits),
    providerIds: [...providerIds].sort(),
    resourceIds: [...resourceIds].sort(),
  };
}

/** The provider and resource ids of one service of the business. */
export async function assignmentsOf(db: Database, businessId: string, id: string): Promise<ServiceAssignments> {
  const [providers, resources] = await Promise.all([
    assignedIdsOf(db, "provider", businessId, [id]),
    assignedIdsOf(db, "resource", businessId, [id]),
  ]);
  return { providerIds: providers.get(id) ?? [], resourceIds: resources.get(id) ?? [] };
}

/** The business's service with this id as the API shows it, and its version (its ETag's marker). */
export async function findService(db: Database, businessId: string, id: string) {
  const row = await loadService(db, businessId, id);
  return { service: toService(row, await assignmentsOf(db, businessId, row.id)), version: row.version };
}

/**
 * Adds a service to the catalog with the providers who perform it and the resources it needs
 * (each one of the business's, else a 422 at `providerIds.<i>` or `resourceIds.<i>`);
 * `slotIntervalMinutes` defaults to `durationMinutes`.
 */
export async function addService(
  db: Database,
  businessId: string,
  {
    providerIds,
    resourceIds,
    ...fields
  }: Omit<ServiceFields, "description" | "slotIntervalMinutes"> & {
    description?: string | null;
    slotIntervalMinutes?: number;
  } & ServiceAssignments,
  actor: Actor,
) {
  await Promise.all([
    assertAssignable(db, "provider", businessId, providerIds),
    assertAssignable(db, "resource", businessId, resourceIds),
  ]);
  const now = new Date().toISOString();
  const id = newId("service");
  const insert = db
    .insert(services)
    .values({
      ...fields,
      description: fields.description ?? null,
      slotIntervalMinutes: fields.slotIntervalMinutes ?? fields.durationMinutes,
      id,
      businessId,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  // One statement per kind of assignment, each binding its ids as one list (D1 binds at most 100 values).
  const links = [
    insertAssignments(db, "provider", businessId, id, providerIds),
    insertAssignments(db, "resource", businessId, id, resourceIds),
  ].filter((statement) => statement !== undefined);
  const audit = { businessId, actor, action: "service.created", resource: { type: "service", id } };
  const fieldNames = fieldsOf({ ...fields, providerIds, resourceIds });
  const [rows] = await db.batch([insert, recordQuery(db, { ...audit, fields: fieldNames }), ...links]);
  return toService(rows[0] as NonNullable<(typeof rows)[0]>, { providerIds, resourceIds });
}

/** A page of services, its total and the page's assignments: one prepared batch per isolate. */
const listQueries = (db: Database) =>
  preparedOnce(db, "services-list", (db) => {
    const where = and(
      eq(services.businessId, sql.placeholder("businessId")),
      eq(services.active, sql.placeholder("active")),
    );
    const page = () =>
      db
        .select()
        .from(services)
        .where(where)
        .orderBy(desc(services.id))
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset"));
    const onPage = page().as("on_page");
    // The assignment rows of the services on the page.
    const ofPage = (links: typeof serviceProviders | typeof serviceResources) =>
      and(
        eq(links.businessId, sql.placeholder("businessId")),
        inArray(links.serviceId, db.select({ id: onPage.id }).from(onPage)),
      );
    const { serviceId, providerId } = serviceProviders;
    return {
      page: page().prepare(),
      total: db.select({ total: count() }).from(services).where(where).prepare(),
      links: db
        .select({ serviceId, providerId })
        .from(serviceProviders)
        .where(ofPage(serviceProviders))
        .orderBy(serviceId, providerId)
        .prepare(),
      resources: db
        .select({ serviceId: serviceResources.serviceId, resourceId: serviceResources.resourceId })
        .from(serviceResources)
        .where(ofPage(serviceResources))
        .prepare(),
    };
  });

/** One page of the business's active (or inactive) services, newest first, and how many there are: one D1 round trip. */
export async function servicePage(
  db: Database,
  read: ReadBatch,
  businessId: string,
  { page, limit, active }: PageRequest & { active: boolean },
) {
  const queries = listQueries(db);
  // Placeholders are bound as they are: the boolean column takes 1 or 0.
  const values = { businessId, active: active ? 1 : 0 };
  const paged = { ...values, limit, offset: offsetOf({ page, limit }) };
  const [rows, [totals], links, needs] = await read([
    bind(queries.page, paged),
    bind(queries.total, values),
    bind(queries.links, paged),
    bind(queries.resources, paged),
  ]);
  const linked = new Map<string, ServiceAssignments>(rows.map((row) => [row.id, { providerIds: [], resourceIds: [] }]));
  for (const link of links) linked.get(link.serviceId)?.providerIds.push(link.providerId);
  for (const need of needs) linked.get(need.serviceId)?.resourceIds.push(need.resourceId);
  const none = { providerIds: [], resourceIds: [] };
  return { items: rows.map((row) => toService(row, linked.get(row.id) ?? none)), total: totals?.total ?? 0 };
}
