import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { findHold } from "../../calendar";
import { holds } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";

type Target = { serviceId?: string; startTime?: string; endTime?: string; providerId?: string; holdId?: string };

/**
 * What a booking request is for: its own service and times, or those of the hold it names.
 * Fields sent beside a `holdId` must agree with the hold (else 422 at that field).
 */
export async function bookingTarget(
  c: Context<AppEnv>,
  body: Target,
): Promise<{ serviceId: string; startTime: string; endTime: string; providerId?: string }> {
  if (!body.holdId) return body as { serviceId: string; startTime: string; endTime: string };
  const { businessId } = c.var.caller;
  const [row] = await c.var.db
    .select({ serviceId: holds.serviceId })
    .from(holds)
    .where(and(eq(holds.businessId, businessId), eq(holds.id, body.holdId)))
    .limit(1);
  const hold = row ? await findHold(c.env, businessId, row.serviceId, body.holdId) : null;
  if (!hold) {
    throw new ApiError("validation_failed", `No hold ${body.holdId}.`, {
      errors: [{ path: "holdId", message: "No such hold." }],
    });
  }
  const fromHold = {
    serviceId: hold.serviceId,
    startTime: hold.startTime,
    endTime: hold.endTime,
    providerId: hold.providerId ?? undefined,
  };
  const errors = (["serviceId", "startTime", "endTime", "providerId"] as const).flatMap((field) => {
    const sent = body[field];
    const same =
      field.endsWith("Time") && sent
        ? Date.parse(sent) === Date.parse(fromHold[field] ?? "")
        : sent === fromHold[field];
    return sent === undefined || same ? [] : [{ path: field, message: "Differs from the hold's." }];
  });
  if (errors.length > 0) throw new ApiError("validation_failed", "The request disagrees with the hold.", { errors });
  return fromHold;
}
