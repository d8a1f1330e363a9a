/**
 * A service's assignments: the providers who perform it (`service_providers`) and the resources
 * every booking of it takes a unit of (`service_resources`). Both are kept the same way, so each
 * operation is written once over the kind.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { inList, listRows } from "../db/json-list";
import { providers, resources, serviceProviders, serviceResources, services } from "../db/schema";
import { ApiError } from "../lib/api-error";

/** The tables and names of each kind of assignment. */
const kinds = {
  provider: {
    link: serviceProviders,
    member: serviceProviders.providerId,
    owners: providers,
    column: "provider_id",
    key: "providerId",
    field: "providerIds",
  },
  resource: {
    link: serviceResources,
    member: serviceResources.resourceId,
    owners: resources,
    column: "resource_id",
    key: "resourceId",
    field: "resourceIds",
  },
} as const;

/** What a service is assigned. */
export type AssignmentKind = keyof typeof kinds;

/** The assigned ids of each of these services of the business (every service id is a key). */
export async function assignedIdsOf(
  db: Database,
  kind: AssignmentKind,
  businessId: string,
  serviceIds: string[],
): Promise<Map<string, string[]>> {
  const { link, member } = kinds[kind];
  const byService = new Map<string, string[]>(serviceIds.map((id) => [id, []]));
  if (serviceIds.length === 0) return byService;
  const rows = await db
    .select({ serviceId: link.serviceId, id: member })
    .from(link)
    .where(and(eq(link.businessId, businessId), inList(link.serviceId, serviceIds)));
  for (const row of rows) byService.get(row.serviceId)?.push(row.id);
  return byService;
}

/** The query for the providers who perform a service, by id (for a `db.batch`). */
export function providersOfService(db: Database, businessId: string, serviceId: string) {
  return db
    .select({ provider: providers })
    .from(serviceProviders)
    .innerJoin(providers, eq(providers.id, serviceProviders.providerId))
    .where(and(eq(serviceProviders.businessId, businessId), eq(serviceProviders.serviceId, serviceId)))
    .orderBy(serviceProviders.providerId);
}

/** The query for the resources a service needs, by id (for a `db.batch`). */
export function resourcesOfService(db: Database, businessId: string, serviceId: string) {
  return db
    .select({ resource: resources })
    .from(serviceResources)
    .innerJoin(resources, eq(resources.id, serviceResources.resourceId))
    .where(and(eq(serviceResources.businessId, businessId), eq(serviceResources.serviceId, serviceId)))
    .orderBy(serviceResources.resourceId);
}

/** Throws 422 at `providerIds.<i>` (or `resourceIds.<i>`) for every id the business does not have. */
export async function assertAssignable(
  db: Database,
  kind: AssignmentKind,
  businessId: string,
  ids: string[],
): Promise<void> {
  if (ids.length === 0) return;
  const { owners, field } = kinds[kind];
  const found = await db
    .select({ id: owners.id })
    .from(owners)
    .where(and(eq(owners.businessId, businessId), inList(owners.id, ids)));
  const known = new Set(found.map((row) => row.id));
  const errors = ids.flatMap((id, i) =>
    known.has(id) ? [] : [{ path: `${field}.${i}`, message: `No ${kind} ${id}.` }],
  );
  if (errors.length > 0) throw new ApiError("validation_failed", "The request body is invalid.", { errors });
}

/**
 * The statement that assigns `ids` to a new service (one row each, in the assignment table's column
 * order: business, service, assigned id), with the ids as one bound list: 50 providers bind 3
 * values, not 150. Undefined for no ids.
 */
export function insertAssignments(
  db: Database,
  kind: AssignmentKind,
  businessId: string,
  serviceId: string,
  ids: string[],
) {
  if (ids.length === 0) return undefined;
  const { link } = kinds[kind];
  return db
    .insert(link as typeof serviceProviders)
    .select(sql`SELECT ${businessId}, ${serviceId}, j.value FROM ${listRows(ids)}`);
}

/**
 * Statements that set a service's assignments of one kind to `ids`, applied only if the service row
 * still carries `updatedAt` — so in one batch with the service's own compare-and-set update they
 * change nothing when that update lost. Two statements, whatever the number of ids.
 */
export function replaceAssignments(
  db: Database,
  kind: AssignmentKind,
  serviceId: string,
  ids: string[],
  updatedAt: string,
) {
  const { link } = kinds[kind];
  const current = sql`EXISTS (SELECT 1 FROM services WHERE id = ${serviceId} AND updated_at = ${updatedAt})`;
  // Typed as the provider table: both assignment tables are (business, service, assigned id).
  const insert = db
    .insert(link as typeof serviceProviders)
    .select(
      sql`SELECT ${services.businessId}, ${services.id}, j.value FROM ${services}, ${listRows(ids)} WHERE ${services.id} = ${serviceId} AND ${services.updatedAt} = ${updatedAt}`,
    );
  return [db.delete(link).where(and(eq(link.serviceId, serviceId), current)), insert] as const;
}
