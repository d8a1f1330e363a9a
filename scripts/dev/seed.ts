/**
 * The demo data of `npm run dev`, made through the API with the demo key once wrangler answers:
 * e-mails on, providers, room, services, customers, bookings, a visit and a series, the booking
 * page, each only when missing, then the links made anew at every start. Problems are warnings:
 * the server keeps running, and the banner shows whatever was made.
 */
import { DEMO_BUSINESS_NAME } from "../lib/demo.ts";
import type { DemoApi } from "./api.ts";
import { seedAppointments } from "./bookings.ts";
import { enableDemoEmails, seedBookingPage } from "./business.ts";
import { seedCatalogue, seedCustomers } from "./catalogue.ts";
import type { Demo } from "./demo.ts";
import { makeDemoLinks } from "./links.ts";
import { log, sinceStart, warn } from "./log.ts";
import type { DevOptions } from "./options.ts";

/** Seeds in the order the demo data depends on. */
async function seedInOrder(api: DemoApi, options: DevOptions, demo: Demo): Promise<void> {
  await enableDemoEmails(api);
  const catalogue = await seedCatalogue(api);
  if (!catalogue) return;
  const { services } = catalogue;
  const seeded = [
    ...catalogue.seeded,
    ...(await seedCustomers(api)),
    ...(await seedAppointments(api, services, demo)),
    ...(await seedBookingPage(api, services, options.origin, demo)),
  ];
  log(
    seeded.length
      ? `seeded ${seeded.join(", ")} for "${DEMO_BUSINESS_NAME}" (${sinceStart()} after start).`
      : "demo data already present.",
  );
  await makeDemoLinks(api, options, demo);
}

/**
 * Seeds what the demo business does not have yet and answers what the banner shows of it. It is
 * filled in as seeding goes, so a failure midway still shows what was made.
 */
export async function seedDemo(api: DemoApi, options: DevOptions): Promise<Demo> {
  const demo: Demo = { pageUrl: "", visitId: "", seriesId: "", feedUrl: "", manageUrl: "", signIns: [] };
  try {
    await seedInOrder(api, options, demo);
  } catch (error) {
    warn(`seeding failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return demo;
}
