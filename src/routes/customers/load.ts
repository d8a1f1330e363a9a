import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../../db/client";
import { type CustomerRow, customers } from "../../db/schema";
import { ApiError } from "../../lib/errors";

/** The caller's customer with this id, or a 404 that does not tell other tenants' ids (or erased people) apart. */
export async function loadCustomer(db: Database, businessId: string, id: string): Promise<CustomerRow> {
  const [row] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.id, id), isNull(customers.erasedAt)))
    .limit(1);
  if (!row) throw new ApiError("not_found", `No customer ${id}.`);
  return row;
}

/** Whether a D1 error is a UNIQUE constraint failure (Drizzle wraps the driver's error as `cause`). */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e.message.includes("UNIQUE constraint failed")) return true;
  }
  return false;
}
