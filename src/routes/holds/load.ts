import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { findHold } from "../../calendar";
import { holds } from "../../db/schema";
import type { Hold } from "../../domain/hold";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";

/** The caller's hold with this id as its calendar knows it now, or a 404 that does not tell tenants apart. */
export async function loadHold(c: Context<AppEnv>, id: string): Promise<{ hold: Hold; serviceId: string }> {
  const { businessId } = c.var.caller;
  const [row] = await c.var.db
    .select({ serviceId: holds.serviceId })
    .from(holds)
    .where(and(eq(holds.businessId, businessId), eq(holds.id, id)))
    .limit(1);
  const hold = row ? await findHold(c.env, businessId, row.serviceId, id) : null;
  if (!row || !hold) throw new ApiError("not_found", `No hold ${id}.`);
  return { hold, serviceId: row.serviceId };
}
