/** The link between services and the providers who perform them (`service_providers`). */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { providers, serviceProviders, services } from "../db/schema";
import { ApiError } from "../lib/errors";

/** The provider ids of each of these services of the business (every service id is a key). */
export async function providerIdsOf(
  db: Database,
  businessId: string,
  serviceIds: string[],
): Promise<Map<string, string[]>> {
  const byService = new Map<string, string[]>(serviceIds.map((id) => [id, []]));
  if (serviceIds.length === 0) return byService;
  const rows = await db
    .select({ serviceId: serviceProviders.serviceId, providerId: serviceProviders.providerId })
    .from(serviceProviders)
    .where(and(eq(serviceProviders.businessId, businessId), inArray(serviceProviders.serviceId, serviceIds)));
  for (const row of rows) byService.get(row.serviceId)?.push(row.providerId);
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

/** Throws 422 at `providerIds.<i>` for every id that is not a provider of this business. */
export async function assertProvidersExist(db: Database, businessId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await db
    .select({ id: providers.id })
    .from(providers)
    .where(and(eq(providers.businessId, businessId), inArray(providers.id, ids)));
  const known = new Set(found.map((row) => row.id));
  const errors = ids.flatMap((id, i) =>
    known.has(id) ? [] : [{ path: `providerIds.${i}`, message: `No provider ${id}.` }],
  );
  if (errors.length > 0) throw new ApiError("validation_failed", "The request body is invalid.", { errors });
}

/**
 * Statements that set a service's providers to `ids`, applied only if the service row still
 * carries `updatedAt` — so in one batch with the service's own compare-and-set update they
 * change nothing when that update lost.
 */
export function replaceProviders(db: Database, serviceId: string, ids: string[], updatedAt: string) {
  const won = and(eq(services.id, serviceId), eq(services.updatedAt, updatedAt));
  const current = sql`EXISTS (SELECT 1 FROM services WHERE id = ${serviceId} AND updated_at = ${updatedAt})`;
  return [
    db.delete(serviceProviders).where(and(eq(serviceProviders.serviceId, serviceId), current)),
    ...ids.map((providerId) =>
      db.insert(serviceProviders).select(
        db
          .select({
            businessId: services.businessId,
            serviceId: services.id,
            providerId: sql<string>`${providerId}`.as("provider_id"),
          })
          .from(services)
          .where(won),
      ),
    ),
  ] as const;
}
