import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import { changeBookingStatus } from "../../bookings/change-status";
import type { AppEnv } from "../../env";
import { etagOf, ifMatchVersions } from "../../lib/etag";
import { z } from "../../lib/zod";
import { withManageUrl } from "../../manage-links/present";
import { BookingSchema, BookingStatusSchema } from "../../schemas/bookings";
import { needs } from "../../types/scopes";
import { conditionalPatch } from "../operations";

const UpdateBookingSchema = z
  .strictObject({
    status: BookingStatusSchema.optional().openapi({
      description:
        "PENDING → CONFIRMED | CANCELLED; CONFIRMED → CANCELLED | COMPLETED | NO_SHOW. Anything else is a 409.",
      example: "CANCELLED",
    }),
    notes: z.string().max(2000).nullable().optional().openapi({ example: "Called to cancel." }),
    cancellationReason: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .optional()
      .openapi({ description: "Only together with status CANCELLED.", example: "Customer is ill." }),
  })
  .refine((b) => b.status !== undefined || b.notes !== undefined, "Send status or notes.")
  .refine((b) => b.cancellationReason === undefined || b.status === "CANCELLED", {
    message: "cancellationReason goes with status CANCELLED.",
    path: ["cancellationReason"],
  })
  .openapi("UpdateBooking");

const route = createRoute({
  method: "patch",
  path: "/{id}",
  operationId: "updateBooking",
  tags: ["Bookings"],
  summary: "Change a booking's status or notes",
  description: [
    "Rules the schema cannot express: send `status` or `notes` (or both); `cancellationReason` only together with `status` CANCELLED (else 422). A status change must follow PENDING → CONFIRMED | CANCELLED, CONFIRMED → CANCELLED | COMPLETED | NO_SHOW (else 409 `invalid_transition`, also for the status it already has); COMPLETED and NO_SHOW describe what happened, so they are a 409 `invalid_transition` before the appointment's `startTime`.",
    "With `If-Match`, the change applies only if the booking still has that ETag (else 412).",
  ].join("\n\n"),
  security: needs("bookings:write"),
  ...conditionalPatch(
    UpdateBookingSchema,
    BookingSchema,
    "The updated booking.",
    "bkg_01jd3k5v7q8r9s0t1u2v3w4x5y",
    409,
  ),
});

export const registerUpdateBooking = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { status, notes, cancellationReason } = c.req.valid("json");
    const expectedVersions = ifMatchVersions(c);
    const { booking, version } = await changeBookingStatus(c.env, c.var.db, c.var.caller.businessId, {
      bookingId: id,
      status,
      notes,
      cancellationReason,
      expectedVersions,
      actor: actorOf(c.var.caller),
    });
    c.header("ETag", etagOf(version));
    return c.json(await withManageUrl(c.env, c.var.caller, booking), 200);
  });
