/**
 * `/office/bookings/{id}` and its form posts. Each action is the API operation's own domain
 * function (src/bookings/change-status.ts, as `POST /bookings/{id}/cancel` and `PATCH
 * /bookings/{id}` run it; src/bookings/reschedule.ts, as `POST /bookings/{id}/reschedule`) after the same role check, with the member as the actor the audit
 * records; done, it answers 303 back to the page with a flash, refused, the page again with the
 * reason. Cross-site posts never get here (index.tsx: 403, nothing changed).
 */
import { Hono } from "hono";
import { actorOf } from "../../access/actor";
import { changeBookingStatus } from "../../bookings/change-status";
import { rescheduleBooking } from "../../bookings/reschedule";
import type { StatusChangeCommand } from "../../calendar";
import { ApiError } from "../../lib/api-error";
import { readForm } from "../../pages/form";
import { isDay } from "../../pages/state";
import { cancellationReason } from "../../schemas/bookings";
import type { Actor } from "../../types/actor";
import { authorise } from "../frame/authorise";
import type { DeskContext, DeskEnv } from "../frame/desk";
import { flashOf } from "../frame/flash";
import type { DeskStatus } from "../frame/layout";
import { loadBookingView } from "./load";
import { postedTime } from "./move";
import { bookingDeskPage } from "./page";

/** The booking's page and its actions, mounted by desk.ts. */
export const bookingRoutes = new Hono<DeskEnv>();

bookingRoutes.get("/bookings/:id", async (c) => {
  const id = c.req.param("id");
  const asked = c.req.query("moveDay");
  const moveDay = asked !== undefined && isDay(asked) ? asked : undefined;
  const view = await loadBookingView(c, id, moveDay);
  return bookingDeskPage(c, view, { flash: flashOf(c, c.var.desk.m.flash), moveDay });
});

/** The page again, saying why the change was not made (nothing changed). */
async function refused(c: DeskContext, id: string, reason: string, status: DeskStatus) {
  return bookingDeskPage(c, await loadBookingView(c, id), { refused: reason }, status);
}

/**
 * Runs a change of the booking as `operation` of the API would: the role check, then `run` (the
 * operation's domain function) with the member as actor. A refusal of the change itself (409,
 * 412, 422) is the page with its reason; not found is the 404 page.
 */
async function change(
  c: DeskContext,
  operation: string,
  run: (id: string, actor: Actor) => Promise<unknown>,
  done: string,
) {
  const id = c.req.param("id") ?? "";
  await authorise(c, "bookings:write", operation, id);
  try {
    await run(id, actorOf(c.var.caller));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 404 || error.status >= 500) throw error;
    return refused(c, id, error.message, error.status === 409 ? 409 : 422);
  }
  return c.redirect(`/office/bookings/${id}?done=${done}`, 303);
}

/** The status change of `POST /bookings/{id}/cancel` and `PATCH /bookings/{id}`, through the booking's calendar. */
const statusChange =
  (c: DeskContext, command: Omit<StatusChangeCommand, "bookingId" | "actor">) => (id: string, actor: Actor) =>
    changeBookingStatus(c.env, c.var.db, c.var.caller.businessId, { ...command, bookingId: id, actor });

bookingRoutes.post("/bookings/:id/cancel", async (c) => {
  const text = (await readForm(c)).reason?.trim() ?? "";
  const reason = cancellationReason.safeParse(text === "" ? undefined : text);
  if (!reason.success) return refused(c, c.req.param("id"), c.var.desk.m.booking.reasonTooLong, 422);
  return change(
    c,
    "POST /bookings/:id/cancel",
    statusChange(c, { status: "CANCELLED", cancellationReason: reason.data ?? null }),
    "cancelled",
  );
});

bookingRoutes.post("/bookings/:id/status", async (c) => {
  const status = (await readForm(c)).status;
  if (status !== "COMPLETED" && status !== "NO_SHOW") {
    return refused(c, c.req.param("id"), c.var.desk.m.booking.chooseStatus, 422);
  }
  return change(c, "PATCH /bookings/:id", statusChange(c, { status }), status === "COMPLETED" ? "completed" : "noShow");
});

bookingRoutes.post("/bookings/:id/notes", async (c) => {
  const notes = (await readForm(c)).notes?.trim() ?? "";
  if (notes.length > 2000) return refused(c, c.req.param("id"), c.var.desk.m.booking.notesTooLong, 422);
  return change(c, "PATCH /bookings/:id", statusChange(c, { notes: notes === "" ? null : notes }), "notes");
});

bookingRoutes.post("/bookings/:id/move", async (c) => {
  const time = postedTime((await readForm(c)).time);
  if (!time) return refused(c, c.req.param("id"), c.var.desk.m.booking.badTime, 422);
  const { businessId } = c.var.caller;
  const move = (id: string, actor: Actor) => rescheduleBooking(c.env, c.var.db, businessId, id, time, { actor });
  return change(c, "POST /bookings/:id/reschedule", move, "moved");
});
