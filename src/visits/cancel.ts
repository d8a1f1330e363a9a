/** Cancelling a visit: every segment still PENDING or CONFIRMED (bookings/cancel-many.ts). */

import { cancelEach } from "../bookings/cancel-many";
import type { Database } from "../db/client";
import { ApiError } from "../lib/api-error";
import type { Actor } from "../types/actor";
import { holdsCapacity } from "../types/booking";
import { loadVisit, type Visit, visitOf } from "./records";

const noneLeft = (id: string) =>
  new ApiError("invalid_transition", `No segment of appointment ${id} is PENDING or CONFIRMED.`);

/** Cancels the business's visit; a 409 `invalid_transition` when no segment is left to cancel. */
export async function cancelVisit(
  env: Env,
  db: Database,
  businessId: string,
  id: string,
  reason: string | null,
  actor: Actor,
): Promise<Visit> {
  const visit = await loadVisit(db, businessId, id);
  const open = visit.bookings.filter((b) => holdsCapacity(b.status));
  if (open.length === 0) throw noneLeft(id);
  const cancelled = await cancelEach(env, businessId, open, reason, actor);
  if (cancelled.size === 0) throw noneLeft(id);
  // Segments another request changed meanwhile are read again, as they stand now.
  if (cancelled.size < open.length) return loadVisit(db, businessId, id);
  return visitOf(
    id,
    visit.bookings.map((b) => cancelled.get(b.id) ?? b),
  );
}
