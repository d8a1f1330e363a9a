/** Cancelling a series from an instant on: every occurrence starting then or later still PENDING or CONFIRMED (bookings/cancel-many.ts); earlier ones stay. */

import { cancelEach } from "../bookings/cancel-many";
import type { Database } from "../db/client";
import { ApiError } from "../lib/api-error";
import type { Actor } from "../types/actor";
import { holdsCapacity } from "../types/booking";
import { loadSeries, type Series } from "./records";

const noneLeft = (id: string) =>
  new ApiError("invalid_transition", `No occurrence of series ${id} from then on is PENDING or CONFIRMED.`);

/** Cancels the business's series from `from` on; a 409 `invalid_transition` when nothing is left to cancel. */
export async function cancelSeries(
  env: Env,
  db: Database,
  businessId: string,
  id: string,
  { from, reason }: { from: number; reason: string | null },
  actor: Actor,
): Promise<Series> {
  const found = await loadSeries(db, businessId, id);
  const open = found.bookings.filter((b) => holdsCapacity(b.status) && Date.parse(b.startTime) >= from);
  if (open.length === 0) throw noneLeft(id);
  const cancelled = await cancelEach(env, businessId, open, reason, actor);
  if (cancelled.size === 0) throw noneLeft(id);
  // Occurrences another request changed meanwhile are read again, as they stand now.
  if (cancelled.size < open.length) return loadSeries(db, businessId, id);
  return { ...found, bookings: found.bookings.map((b) => cancelled.get(b.id) ?? b) };
}
