import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { type ProviderRow, providers } from "../../db/schema";
import { ApiError } from "../../lib/errors";

/** The caller's provider with this id, or a 404 that does not tell other tenants' ids apart. */
export async function loadProvider(db: Database, businessId: string, id: string): Promise<ProviderRow> {
  const [row] = await db
    .select()
    .from(providers)
    .where(and(eq(providers.businessId, businessId), eq(providers.id, id)))
    .limit(1);
  if (!row) throw new ApiError("not_found", `No provider ${id}.`);
  return row;
}
