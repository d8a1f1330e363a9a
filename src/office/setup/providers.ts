/** The business's people (providers), rooms and services by name, for the setup's lists and choices. */
import { asc, eq } from "drizzle-orm";
import { providers, resources, services } from "../../db/schema";
import type { DeskContext } from "../frame/desk";

export type ProviderChoice = { id: string; name: string; active: boolean };

/** Every person of the member's business, by name (a business has few; the list is not paged). */
export const providersOf = (c: DeskContext): Promise<ProviderChoice[]> =>
  c.var.db
    .select({ id: providers.id, name: providers.name, active: providers.active })
    .from(providers)
    .where(eq(providers.businessId, c.var.caller.businessId))
    .orderBy(asc(providers.name));

/** Every room (resource) of the member's business, by name, with its units. */
export const roomsOf = (c: DeskContext) =>
  c.var.db
    .select({ id: resources.id, name: resources.name, active: resources.active, quantity: resources.quantity })
    .from(resources)
    .where(eq(resources.businessId, c.var.caller.businessId))
    .orderBy(asc(resources.name));

/** Every service of the member's business, by name, with its duration. */
export const servicesOf = (c: DeskContext) =>
  c.var.db
    .select({ id: services.id, name: services.name, active: services.active, minutes: services.durationMinutes })
    .from(services)
    .where(eq(services.businessId, c.var.caller.businessId))
    .orderBy(asc(services.name));
