/** The Worker's side of customer edits and erasure: every calendar of the business is asked. */
import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { services } from "../db/schema";
import { calendarOf } from "./client";
import type { CustomerRewrite } from "./customer-rewrite";

/** Calendars asked at once. */
const PARALLEL_CALENDARS = 8;

/**
 * Rewrites the customer's bookings in every calendar of the business. Every service is asked,
 * not only those D1 lists bookings for: a booking whose D1 write is still pending is known
 * only to its calendar. Each calendar answers once its rewritten bookings (and any D1 write that
 * was in flight) reached D1, or wait in its outbox. Returns the ids of the changed bookings.
 */
export async function rewriteCustomerInCalendars(
  env: Env,
  db: Database,
  businessId: string,
  command: CustomerRewrite,
): Promise<string[]> {
  const rows = await db.select({ id: services.id }).from(services).where(eq(services.businessId, businessId));
  const changed: string[] = [];
  for (let i = 0; i < rows.length; i += PARALLEL_CALENDARS) {
    const answers = await Promise.all(
      rows
        .slice(i, i + PARALLEL_CALENDARS)
        .map((service) => calendarOf(env, businessId, service.id).rewriteCustomer(command)),
    );
    for (const answer of answers) changed.push(...answer.bookingIds);
  }
  return changed;
}
