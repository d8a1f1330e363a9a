/**
 * The demo business's providers, treatment room and services, and its customers
 * (scripts/lib/demo.ts), each made through the API only when the business has none yet, so a
 * user's own changes to the demo survive a restart.
 */
import {
  demoCustomers,
  demoProviders,
  demoRoom,
  demoServices,
  demoServicesWithProviders,
  demoServicesWithRoom,
} from "../lib/demo.ts";
import { type DemoApi, type ListBody, problemText, totalOf } from "./api.ts";
import { warn } from "./log.ts";

/** A service of the demo business, as the API lists it. */
export type DemoService = { id: string; name: string };

/**
 * The demo's active services, after making the providers, the room and the services when there
 * are none; undefined (after a warning) when the services cannot be listed, and then nothing
 * else is seeded. `seeded` says what was made, for the log line.
 */
export async function seedCatalogue(api: DemoApi): Promise<{ services: DemoService[]; seeded: string[] } | undefined> {
  const servicesNow = await api("GET", "/services?active=true&limit=100");
  if (servicesNow.status !== 200) {
    warn(`cannot list services (${problemText(servicesNow)}); skipping the demo data.`);
    return undefined;
  }
  const services = (servicesNow.body as ListBody<DemoService>).data;
  if (services.length > 0) return { services, seeded: [] };
  const seeded: string[] = [];
  const providerIds: string[] = [];
  for (const body of demoProviders) {
    const r = await api("POST", "/providers", body);
    if (r.status === 201) providerIds.push((r.body as { id: string }).id);
    else warn(`could not create provider "${body.name}": ${problemText(r)}`);
  }
  if (providerIds.length > 0) seeded.push(`${providerIds.length} providers`);
  const room = await api("POST", "/resources", demoRoom);
  const resourceIds = room.status === 201 ? [(room.body as { id: string }).id] : [];
  if (room.status === 201) seeded.push("1 room");
  else warn(`could not create resource "${demoRoom.name}": ${problemText(room)}`);
  const created: DemoService[] = [];
  for (const service of demoServices) {
    const body = {
      ...service,
      ...(demoServicesWithProviders.includes(service.name) ? { providerIds } : {}),
      ...(demoServicesWithRoom.includes(service.name) ? { resourceIds } : {}),
    };
    const r = await api("POST", "/services", body);
    if (r.status === 201) created.push(r.body as DemoService);
    else warn(`could not create service "${service.name}": ${problemText(r)}`);
  }
  seeded.push(`${created.length} services`);
  return { services: created, seeded };
}

/** The demo customers, when the business has none yet; answers what was made, for the log line. */
export async function seedCustomers(api: DemoApi): Promise<string[]> {
  const customersNow = await api("GET", "/customers?limit=1");
  if (customersNow.status !== 200) {
    warn(`cannot list customers (${problemText(customersNow)}).`);
    return [];
  }
  if (totalOf(customersNow) > 0) return [];
  let created = 0;
  for (const body of demoCustomers) {
    const r = await api("POST", "/customers", body);
    if (r.status === 201) created++;
    else if (r.status !== 409) warn(`could not create customer ${body.email}: ${problemText(r)}`);
  }
  return [`${created} customers`];
}
