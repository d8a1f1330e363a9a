/**
 * The services a booking page offers: the business's active services marked `bookableOnline`,
 * with what a customer needs to choose one (never capacities, policies' internals or anyone's
 * e-mail): name, description, duration, zone, the people who perform it by name, its questions.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database } from "../db/client";
import { providers, serviceProviders, services } from "../db/schema";
import { ApiError } from "../lib/api-error";
import type { Question } from "../types/questions";

/** The 404 of a service the page does not offer (unknown, another business's, inactive or not online). */
export const notOffered = () => new ApiError("not_found", "This booking page offers no such service.");

/** A service as a booking page shows it. */
export type PublicService = {
  id: string;
  name: string;
  description: string | null;
  durationMinutes: number;
  timezone: string;
  /** How far ahead it can be booked. */
  maxAdvanceDays: number;
  /** The active people who perform it, by name; a customer may pick one where there are several. */
  providers: { id: string; name: string }[];
  /** `one` of the providers performs a booking, or `all` of them together (then no one is picked). */
  providerMode: "one" | "all";
  questions: Question[];
  requiresConfirmation: boolean;
  cancellationNoticeMinutes: number;
  rescheduleNoticeMinutes: number;
};

const columns = {
  id: services.id,
  name: services.name,
  description: services.description,
  durationMinutes: services.durationMinutes,
  timezone: services.timezone,
  maxAdvanceDays: services.maxAdvanceDays,
  providerMode: services.providerMode,
  questions: services.questions,
  requiresConfirmation: services.requiresConfirmation,
  cancellationNoticeMinutes: services.cancellationNoticeMinutes,
  rescheduleNoticeMinutes: services.rescheduleNoticeMinutes,
};

const online = (businessId: string) =>
  and(eq(services.businessId, businessId), eq(services.active, true), eq(services.bookableOnline, true));

/** The most services one page lists (a catalog far larger than any page shows). */
export const MAX_PAGE_SERVICES = 100;

/** The business's services offered online (`serviceId` alone when given), by name, with their people. */
export async function onlineServices(db: Database, businessId: string, serviceId?: string): Promise<PublicService[]> {
  const where = serviceId ? and(online(businessId), eq(services.id, serviceId)) : online(businessId);
  // One D1 round trip: the services, and the people of every service offered online.
  const [rows, providerRows] = await db.batch([
    db
      .select(columns)
      .from(services)
      .where(where)
      .orderBy(asc(services.name), asc(services.id))
      .limit(MAX_PAGE_SERVICES),
    db
      .select({ serviceId: serviceProviders.serviceId, id: providers.id, name: providers.name })
      .from(serviceProviders)
      .innerJoin(providers, eq(providers.id, serviceProviders.providerId))
      .where(
        and(
          eq(serviceProviders.businessId, businessId),
          inArray(serviceProviders.serviceId, db.select({ id: services.id }).from(services).where(where)),
          eq(providers.active, true),
        ),
      )
      .orderBy(asc(providers.name), asc(providers.id)),
  ]);
  return rows.map((row) => ({
    ...row,
    providers: providerRows.filter((p) => p.serviceId === row.id).map(({ id, name }) => ({ id, name })),
  }));
}

/** One service the business offers online, or undefined. */
export async function onlineService(
  db: Database,
  businessId: string,
  serviceId: string,
): Promise<PublicService | undefined> {
  return (await onlineServices(db, businessId, serviceId))[0];
}
