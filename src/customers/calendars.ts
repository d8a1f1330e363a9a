import { eq } from "drizzle-orm";
import { type CustomerRewrite, rewriteCustomer } from "../calendar";
import type { Database } from "../db/client";
import { services } from "../db/schema";

/**
 * Rewrites the customer's bookings in every calendar of the business. Every service is asked,
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
  return rewriteCustomer(
    env,
    businessId,
    rows.map((row) => row.id),
    command,
  );
}
