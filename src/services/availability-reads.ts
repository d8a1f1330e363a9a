/**
 * What the slot calendar reads of D1: the service, the providers who perform it and the
 * resources it needs, in one batch prepared once per isolate — with the caller's key check in the
 * same round trip when the request still owes one (`batchReader`). It was three round trips: the
 * service, then its links, then the key.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { bind, preparedOnce, type ReadBatch, readBatch } from "../db/prepared";
import { providers, resources, serviceProviders, serviceResources, services } from "../db/schema";
import { ApiError } from "../lib/api-error";

const reads = (db: Database) =>
  preparedOnce(db, "service-availability", (db) => {
    const businessId = sql.placeholder("businessId");
    const serviceId = sql.placeholder("serviceId");
    return {
      service: db
        .select()
        .from(services)
        .where(and(eq(services.businessId, businessId), eq(services.id, serviceId)))
        .limit(1)
        .prepare(),
      providers: db
        .select({ provider: providers })
        .from(serviceProviders)
        .innerJoin(providers, eq(providers.id, serviceProviders.providerId))
        .where(and(eq(serviceProviders.businessId, businessId), eq(serviceProviders.serviceId, serviceId)))
        .orderBy(serviceProviders.providerId)
        .prepare(),
      resources: db
        .select({ resource: resources })
        .from(serviceResources)
        .innerJoin(resources, eq(resources.id, serviceResources.resourceId))
        .where(and(eq(serviceResources.businessId, businessId), eq(serviceResources.serviceId, serviceId)))
        .orderBy(serviceResources.resourceId)
        .prepare(),
    };
  });

/** The business's service with its providers and resources (by id), or a 404 as `loadService` answers. */
export async function loadCalendarOf(
  env: Env,
  db: Database,
  businessId: string,
  serviceId: string,
  read: ReadBatch = (batch) => readBatch(env.DB, batch),
) {
  const queries = reads(db);
  const values = { businessId, serviceId };
  const [[service], providerRows, needs] = await read([
    bind(queries.service, values),
    bind(queries.providers, values),
    bind(queries.resources, values),
  ]);
  if (!service) throw new ApiError("not_found", `No service ${serviceId}.`);
  return { service, providers: providerRows, resources: needs };
}
