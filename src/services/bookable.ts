/** The service a booking, hold, move or import is for, checked before its calendar is asked. */
import { and, eq } from "drizzle-orm";
import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import type { ProviderSnapshot, ResourceSnapshot, ServiceSnapshot } from "../calendar";
import type { Database } from "../db/client";
import { services } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { providerSnapshotOf } from "../providers/snapshot";
import { resourceSnapshotOf } from "../resources/snapshot";
import { type Answers, answerErrors } from "../types/questions";
import { providersOfService, resourcesOfService } from "./assignments";
import { serviceSnapshotOf } from "./snapshot";

/** What a caller refuses, where it differs from a new booking's request (a 422 at `serviceId`). */
export type BookableCheck = {
  /** The problem when the business has no such service. */
  missing?: () => ApiError;
  /** The problem when the service is not active; null when an inactive service will do. */
  inactive?: (() => ApiError) | null;
  /** The provider the request names, who must perform the service (else a 422 at `providerId`). */
  providerId?: string;
  /** A new booking's answers, which must fit the service's questions (else a 422 at `answers.<key>`). */
  answers?: Answers;
};

/**
 * The business's service, as its calendar takes it, the providers who perform it and the
 * resources it needs, as their calendars take them, once the service is found (else `check.missing`), active (else `check.inactive`)
 * and performed by `check.providerId`. Reads that the caller needs too (`also`) go in the same
 * D1 batch, and their rows come back beside.
 */
export async function loadBookableService<const Also extends BatchItem<"sqlite">[] = []>(
  db: Database,
  businessId: string,
  serviceId: string,
  check: BookableCheck = {},
  ...also: Also
): Promise<{
  service: ServiceSnapshot;
  providers: ProviderSnapshot[];
  resources: ResourceSnapshot[];
  also: BatchResponse<Also>;
}> {
  const [[service], performers, needs, ...rest] = await db.batch([
    db
      .select()
      .from(services)
      .where(and(eq(services.businessId, businessId), eq(services.id, serviceId)))
      .limit(1),
    providersOfService(db, businessId, serviceId),
    resourcesOfService(db, businessId, serviceId),
    ...also,
  ]);
  if (!service) {
    throw (
      check.missing?.() ??
      new ApiError("service_not_found", `No service ${serviceId}.`, {
        errors: [{ path: "serviceId", message: "No such service." }],
      })
    );
  }
  if (!service.active && check.inactive !== null) {
    throw (
      check.inactive?.() ??
      new ApiError("service_inactive", `Service ${serviceId} is not active.`, {
        errors: [{ path: "serviceId", message: "The service is not active." }],
      })
    );
  }
  const providers = performers.map((row) => providerSnapshotOf(row.provider));
  const { providerId } = check;
  if (providerId !== undefined && !providers.some((p) => p.id === providerId)) {
    throw new ApiError("validation_failed", `Provider ${providerId} does not perform this service.`, {
      errors: [{ path: "providerId", message: "Not one of the service's providerIds." }],
    });
  }
  const wrong = check.answers && answerErrors(service.questions, check.answers);
  if (wrong?.length)
    throw new ApiError("validation_failed", "The answers do not fit the service's questions.", { errors: wrong });
  const resources = needs.map((row) => resourceSnapshotOf(row.resource));
  return { service: serviceSnapshotOf(service), providers, resources, also: rest as BatchResponse<Also> };
}
