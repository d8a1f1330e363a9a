import { eq } from "drizzle-orm";
import { type CustomerRewrite, serviceCalendarOf } from "../calendar";
import type { Database } from "../db/client";
import { services } from "../db/schema";

/** Calendars asked at once by a customer rewrite. */
const PARALLEL_CALENDARS = 8;

/**
 * Rewrites (edit) or erases the customer's details in every calendar of the business: each
 * answers once its rewritten bookings reached D1 or wait in its outbox. Every service is asked,
 * not only those D1 lists bookings for: a booking whose D1 write is still pending is known only
 * to its calendar. Returns the ids of the changed bookings.
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
        .map((row) => serviceCalendarOf(env, businessId, row.id).rewriteCustomer(command)),
    );
    for (const answer of answers) changed.push(...answer.bookingIds);
  }
  return changed;
}
