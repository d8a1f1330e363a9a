/**
 * The demo visit (a cut and a beard trim back to back by one stylist, POST /appointments) and
 * the demo weekly series (POST /series), each only if its demo customer has none yet, cancelled
 * ones included, as for the other demo data. Their ids go into the banner, whether made now or
 * found.
 */
import type { LocalDate } from "../../src/calendar/rules/zoned.ts";
import { demoCustomers, demoProviders, demoSeries, demoServices, demoVisit } from "../lib/demo.ts";
import { type DemoApi, type ListBody, problemText } from "./api.ts";
import type { DemoService } from "./catalogue.ts";
import { demoDays, wallClock } from "./days.ts";
import type { Demo } from "./demo.ts";
import { warn } from "./log.ts";

type DemoCustomer = (typeof demoCustomers)[number];

/**
 * The id in `field` ("appointmentId" or "seriesId") of a booking of the demo customer `email`:
 * "" when none has one, undefined (after a warning) when it cannot tell.
 */
async function existingId(
  api: DemoApi,
  email: string,
  field: "appointmentId" | "seriesId",
): Promise<string | undefined> {
  const customers = await api("GET", `/customers?search=${encodeURIComponent(email)}&limit=100`);
  if (customers.status !== 200) {
    warn(`cannot look up customer ${email} (${problemText(customers)}).`);
    return undefined;
  }
  const customer = (customers.body as ListBody<{ id: string; email: string }>).data.find(
    (c) => c.email.toLowerCase() === email.toLowerCase(),
  );
  if (!customer) return "";
  const bookings = await api("GET", `/bookings?customerId=${encodeURIComponent(customer.id)}&limit=100`);
  if (bookings.status !== 200) {
    warn(`cannot list the bookings of ${email} (${problemText(bookings)}).`);
    return undefined;
  }
  const data = (bookings.body as ListBody<Record<typeof field, string | null>>).data;
  return data.find((b) => b[field])?.[field] ?? "";
}

const phoneOf = (customer: DemoCustomer) => ("phone" in customer ? { customerPhone: customer.phone } : {});

/** Books the demo visit with the first stylist; answers what was made. */
async function seedVisit(api: DemoApi, services: DemoService[], customer: DemoCustomer, days: LocalDate[], demo: Demo) {
  const providers = await api("GET", "/providers?limit=100");
  const stylistName = demoProviders[demoVisit.provider]?.name;
  const stylist = (providers.body as ListBody<{ id: string; name: string }> | undefined)?.data?.find(
    (p) => p.name === stylistName,
  );
  const segments = demoVisit.segments.map((name) => services.find((s) => s.name === name));
  const first = demoServices.find((s) => s.name === demoVisit.segments[0]);
  const date = days[demoVisit.day];
  if (!stylist || !first || !date || !segments.every((s) => s !== undefined)) return [];
  const body = {
    customerName: customer.name,
    customerEmail: customer.email,
    ...phoneOf(customer),
    startTime: wallClock(date, demoVisit.start, first.timezone).toISOString(),
    segments: segments.map((s) => ({ serviceId: s.id, providerId: stylist.id })),
  };
  const r = await api("POST", "/appointments", body, {
    "Idempotency-Key": `demo-seed:visit:${body.startTime}:${customer.email}`,
  });
  if (r.status !== 201 && r.status !== 200) {
    warn(`could not book the demo visit at ${body.startTime}: ${problemText(r)}`);
    return [];
  }
  demo.visitId = (r.body as { id: string }).id;
  return [`1 visit (${(r.body as { bookings: unknown[] }).bookings.length} bookings)`];
}

/** Books the demo weekly series, skipping occurrences that do not fit; answers what was made. */
async function seedSeries(
  api: DemoApi,
  services: DemoService[],
  customer: DemoCustomer,
  days: LocalDate[],
  demo: Demo,
) {
  const service = services.find((s) => s.name === demoSeries.service);
  const spec = demoServices.find((s) => s.name === demoSeries.service);
  const date = days[demoSeries.day];
  if (!service || !spec || !date) return [];
  const start = wallClock(date, demoSeries.start, spec.timezone);
  const body = {
    serviceId: service.id,
    customerName: customer.name,
    customerEmail: customer.email,
    ...phoneOf(customer),
    startTime: start.toISOString(),
    endTime: new Date(start.getTime() + spec.durationMinutes * 60_000).toISOString(),
    recurrence: demoSeries.recurrence,
    onConflict: "skip",
  };
  const r = await api("POST", "/series", body, {
    "Idempotency-Key": `demo-seed:series:${body.startTime}:${customer.email}`,
  });
  if (r.status !== 201 && r.status !== 200) {
    warn(`could not book the demo series from ${body.startTime}: ${problemText(r)}`);
    return [];
  }
  const created = r.body as { id: string; bookings: unknown[]; skipped: { startTime: string; reason: string }[] };
  demo.seriesId = created.id;
  for (const s of created.skipped) warn(`the demo series skipped ${s.startTime} (${s.reason}).`);
  return [`1 series (${created.bookings.length} bookings)`];
}

/**
 * The visit and the series unless their customers have them; `fresh`: the business had no
 * bookings before this start (then there is nothing to look up). Two writes at most. Answers
 * what was made, for the log line.
 */
export async function seedVisitAndSeries(
  api: DemoApi,
  services: DemoService[],
  fresh: boolean,
  demo: Demo,
): Promise<string[]> {
  const visitCustomer = demoCustomers[demoVisit.customer];
  const seriesCustomer = demoCustomers[demoSeries.customer];
  if (!visitCustomer || !seriesCustomer) return [];
  const [visitId, seriesId] = fresh
    ? ["", ""]
    : await Promise.all([
        existingId(api, visitCustomer.email, "appointmentId"),
        existingId(api, seriesCustomer.email, "seriesId"),
      ]);
  demo.visitId = visitId ?? "";
  demo.seriesId = seriesId ?? "";
  const days = demoDays();
  const seeded: string[] = [];
  if (visitId === "") seeded.push(...(await seedVisit(api, services, visitCustomer, days, demo)));
  if (seriesId === "") seeded.push(...(await seedSeries(api, services, seriesCustomer, days, demo)));
  return seeded;
}
