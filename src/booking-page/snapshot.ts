/**
 * A booking page and one of its services, read in one D1 round trip: the business by its slug,
 * the service, and the people and resources it takes. The page's times are then asked of the
 * calendar straight away (src/services/availability.ts takes what was read), so a day of times
 * costs the page no more D1 round trips than the keyed availability costs the API.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { businesses, providers, resources, serviceProviders, serviceResources, services } from "../db/schema";
import type { ServiceRead } from "../services/availability";
import { mayHavePage, noPage, type PageBusiness, pageOf } from "./business";
import { notOffered, type PublicService } from "./services";
import { chargeAddress, chargeBusiness } from "./throttle";

/** The page at `slug` and its service `serviceId`, with what the calendar needs of the service. */
export type PageService = { page: PageBusiness; service: PublicService; read: ServiceRead };

/**
 * The page (charged to the client's address first, then to the business, as `pageFor`) and the
 * service it offers under `serviceId`: a 404 for a page that is not there, and for a service
 * that is not the business's, not active or not offered online.
 */
export async function pageService(
  env: Env,
  db: Database,
  slug: string,
  address: string,
  serviceId: string,
): Promise<PageService> {
  await chargeAddress(env, address);
  if (!mayHavePage(env, slug)) throw noPage();
  const [[business], [service], providerRows, needs] = await db.batch([
    db.select().from(businesses).where(eq(businesses.slug, slug)).limit(1),
    db.select().from(services).where(eq(services.id, serviceId)).limit(1),
    db
      .select({ provider: providers })
      .from(serviceProviders)
      .innerJoin(providers, eq(providers.id, serviceProviders.providerId))
      .where(eq(serviceProviders.serviceId, serviceId))
      .orderBy(serviceProviders.providerId),
    db
      .select({ resource: resources })
      .from(serviceResources)
      .innerJoin(resources, eq(resources.id, serviceResources.resourceId))
      .where(eq(serviceResources.serviceId, serviceId))
      .orderBy(serviceResources.resourceId),
  ]);
  const page = pageOf(business, slug);
  await chargeBusiness(env, page.id);
  // Service ids are unique across businesses; the links read with it are its own.
  if (!service || service.businessId !== page.id || !service.active || !service.bookableOnline) throw notOffered();
  const performers = providerRows
    .map(({ provider }) => provider)
    .filter((provider) => provider.active)
    // By name, then id, as `onlineServices` lists them (SQLite's binary order).
    .sort((a, b) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1))
    .map(({ id, name }) => ({ id, name }));
  return {
    page,
    service: {
      id: service.id,
      name: service.name,
      description: service.description,
      durationMinutes: service.durationMinutes,
      timezone: service.timezone,
      maxAdvanceDays: service.maxAdvanceDays,
      providers: performers,
      providerMode: service.providerMode,
      questions: service.questions,
      requiresConfirmation: service.requiresConfirmation,
      cancellationNoticeMinutes: service.cancellationNoticeMinutes,
      rescheduleNoticeMinutes: service.rescheduleNoticeMinutes,
    },
    read: { service, providers: providerRows, resources: needs },
  };
}
