/** The link between services and the resources every booking of theirs takes a unit of (`service_resources`). */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { resources, serviceResources, services } from "../db/schema";
import { ApiError } from "../lib/errors";

/** The resource ids of each of these services of the business (every service id is a key). */
export async function resourceIdsOf(
  db: Database,
  businessId: string,
  serviceIds: string[],
): Promise<Map<string, string[]>> {
  const byService = new Map<string, string[]>(serviceIds.map((id) => [id, []]));
  if (serviceIds.length === 0) return byService;
  const rows = await db
    .select({ serviceId: serviceResources.serviceId, resourceId: serviceResources.resourceId })
    .from(serviceResources)
    .where(and(eq(serviceResources.businessId, businessId), inArray(serviceResources.serviceId, serviceIds)));
  for (const row of rows) byService.get(row.serviceId)?.push(row.resourceId);
  return byService;
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

/** Throws 422 at `resourceIds.<i>` for every id that is not a resource of this business. */
export async function assertResourcesExist(db: Database, businessId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await db
    .select({ id: resources.id })
    .from(resources)
    .where(and(eq(resources.businessId, businessId), inArray(resources.id, ids)));
  const known = new Set(found.map((row) => row.id));
  const errors = ids.flatMap((id, i) =>
    known.has(id) ? [] : [{ path: `resourceIds.${i}`, message: `No resource ${id}.` }],
  );
  if (errors.length > 0) throw new ApiError("validation_failed", "The request body is invalid.", { errors });
}

/**
 * Statements that set a service's resources to `ids`, applied only if the service row still
 * carries `updatedAt` (see `replaceProviders`): in one batch with the service's compare-and-set
 * update they change nothing when that update lost.
 */
export function replaceResources(db: Database, serviceId: string, ids: string[], updatedAt: string) {
  const won = and(eq(services.id, serviceId), eq(services.updatedAt, updatedAt));
  const current = sql`EXISTS (SELECT 1 FROM services WHERE id = ${serviceId} AND updated_at = ${updatedAt})`;
  return [
    db.delete(serviceResources).where(and(eq(serviceResources.serviceId, serviceId), current)),
    ...ids.map((resourceId) =>
      db.insert(serviceResources).select(
        db
          .select({
            businessId: services.businessId,
            serviceId: services.id,
            resourceId: sql<string>`${resourceId}`.as("resource_id"),
          })
          .from(services)
          .where(won),
      ),
    ),
  ] as const;
}
