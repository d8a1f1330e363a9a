/**
 * The demo's appointments: six single bookings when the business has none at all, then a visit
 * and a weekly series (visit-series.ts). Each booking carries an Idempotency-Key made of what it
 * books, so a start interrupted midway and run again books nothing twice.
 */
import { demoBookings, demoCustomers, demoServices } from "../lib/demo.ts";
import { type DemoApi, problemText, totalOf } from "./api.ts";
import type { DemoService } from "./catalogue.ts";
import { demoDays, wallClock } from "./days.ts";
import type { Demo } from "./demo.ts";
import { warn } from "./log.ts";
import { seedVisitAndSeries } from "./visit-series.ts";

/** The single bookings of scripts/lib/demo.ts; answers how many were made. */
async function seedBookings(api: DemoApi, services: DemoService[]): Promise<number> {
  const days = demoDays();
  let created = 0;
  for (const b of demoBookings) {
    const service = services.find((s) => s.name === b.service);
    const spec = demoServices.find((s) => s.name === b.service);
    const customer = demoCustomers[b.customer];
    const date = days[b.day];
    if (!service || !spec || !customer || !date) continue;
    const start = wallClock(date, b.start, spec.timezone);
    const end = new Date(start.getTime() + spec.durationMinutes * 60_000);
    const body = {
      serviceId: service.id,
      customerName: customer.name,
      customerEmail: customer.email,
      ...("phone" in customer ? { customerPhone: customer.phone } : {}),
      startTime: start.toISOString(),
      endTime: end.toISOString(),
      ...(b.notes ? { notes: b.notes } : {}),
    };
    const r = await api("POST", "/bookings", body, {
      "Idempotency-Key": `demo-seed:${service.id}:${body.startTime}:${customer.email}`,
    });
    if (r.status === 201 || r.status === 200) created++;
    else if (r.status === 404 || r.status === 405) {
      warn(`POST /api/v1/bookings is not available yet (HTTP ${r.status}); skipping demo bookings.`);
      break;
    } else warn(`could not book ${b.service} at ${body.startTime} for ${customer.email}: ${problemText(r)}`);
  }
  return created;
}

/**
 * The demo bookings when the business has none, and the visit and series unless their customers
 * have them (their ids go into `demo` for the banner); answers what was made, for the log line.
 */
export async function seedAppointments(api: DemoApi, services: DemoService[], demo: Demo): Promise<string[]> {
  const bookingsNow = await api("GET", "/bookings?limit=1");
  if (bookingsNow.status !== 200) {
    warn(`cannot list bookings (${problemText(bookingsNow)}); skipping demo bookings.`);
    return [];
  }
  const seeded: string[] = [];
  // No bookings before this start: no visit or series either, so there is nothing to look up.
  const fresh = totalOf(bookingsNow) === 0;
  if (fresh) {
    const created = await seedBookings(api, services);
    if (created > 0) seeded.push(`${created} bookings`);
  }
  seeded.push(...(await seedVisitAndSeries(api, services, fresh, demo)));
  return seeded;
}
