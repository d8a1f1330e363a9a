import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { type ServiceRow, services } from "../../db/schema";
import { ApiError } from "../../lib/errors";

/** The caller's service with this id, or a 404 that does not tell other tenants' ids apart. */
export async function loadService(db: Database, businessId: string, id: string): Promise<ServiceRow> {
  const [row] = await db
    .select()
    .from(services)
    .where(and(eq(services.businessId, businessId), eq(services.id, id)))
    .limit(1);
  if (!row) throw new ApiError("not_found", `No service ${id}.`);
  return row;
}
