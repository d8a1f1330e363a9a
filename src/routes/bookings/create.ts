import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { authorOf } from "../../access/actor";
import { createBooking } from "../../bookings/create";
import type { AppEnv } from "../../env";
import { answerOnce } from "../../lib/idempotency";
import { withManageUrl } from "../../manage-links/present";
import { BookingSchema, CreateBookingSchema } from "../../schemas/bookings";
import { needs } from "../../types/scopes";
import { idempotentCreate } from "../operations";

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createBooking",
  tags: ["Bookings"],
  summary: "Book an appointment",
  description: [
    "Checks the service's availability rules and reserves the slot atomically in the service's calendar; the customer is created or updated by e-mail. The booking is CONFIRMED, or PENDING when the service `requiresConfirmation`.",
    "Rules the schema cannot express, checked in this order: the service exists for this business and is active (else 422 `service_not_found` / `service_inactive`); `endTime` − `startTime` equals the service's `durationMinutes` (else 422); the start is not in the past, at least `minNoticeMinutes` ahead and at most `maxAdvanceDays` ahead (else 422 with a `reason`); the appointment lies inside one working interval of its local day, on the `slotIntervalMinutes` grid (else 409 `slot_unavailable`, `reason` `outside_working_hours`); fewer than `capacity` active bookings and live holds overlap it, buffers included (else 409 `slot_unavailable`, `reason` `fully_booked`). On a service with providers (`providerId`, or one assigned: the free provider with the fewest bookings that local day, ties by id), `capacity` counts that provider's session, and the provider must be active and working then (else `reason` `provider_unavailable`) with no other session of any service overlapping (else `provider_busy`; `no_provider_available` when none could be assigned). A `providerId` that does not perform the service is a 422. `503 unavailable` (retry) when a provider's calendar did not answer; nothing is then held.",
    "With `holdId`: the hold's service, times and provider are used (sending different ones is a 422) and its seat becomes the booking's in one step; an expired, released or consumed hold is a 409 `hold_expired`.",
    "`Idempotency-Key`: the same key and request within 24 hours replays the first answer with `Idempotent-Replayed: true`; the same key with another request is a 422 `idempotency_key_reused`; while the first request still runs, a 409 `idempotency_key_in_flight` with `Retry-After`.",
  ].join("\n\n"),
  security: needs("bookings:write"),
  ...idempotentCreate(
    CreateBookingSchema,
    "The booking; `Location` points at it. `Idempotent-Replayed: true` on a replay.",
    BookingSchema,
  ),
});

export const registerCreateBooking = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    return answerOnce(c, body, 201, async (lock) => {
      const { booking, replayed } = await createBooking(c.env, c.var.db, authorOf(c.var.caller), body, lock);
      return {
        body: await withManageUrl(c.env, c.var.caller, booking),
        location: `/api/v1/bookings/${booking.id}`,
        replayed,
      };
    });
  });
