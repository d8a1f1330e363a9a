/** The office's answer to what goes wrong past sign-in: an HTML page in the frame, never a 500 for bad input. */
import { ApiError } from "../../lib/api-error";
import type { DeskContext } from "./desk";
import { type DeskStatus, deskProblem } from "./layout";

/** An API error as an office page: 404 for what is missing or not the member's, its own status otherwise. */
export function deskError(error: unknown, c: DeskContext) {
  if (!(error instanceof ApiError) || !c.var.desk) throw error;
  const { m } = c.var.desk;
  if (error.status === 404) return deskProblem(c, 404, m.errors.notFound, m.errors.notFoundText);
  const status = ([400, 403, 409, 422] as const).find((s) => s === error.status) ?? 400;
  return deskProblem(c, status as DeskStatus, m.booking.refused, error.message);
}
