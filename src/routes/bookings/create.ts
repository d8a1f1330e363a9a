import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { bookingOrThrow, calendarOf, draftOf, snapshotOf } from "../../calendar/client";
import { providerSnapshotOf } from "../../calendar/provider/client";
import { customers, services } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";
import { idempotent, outcomeHeaders } from "../../lib/idempotency";
import { bearerSecurity, bodyProblems, idempotencyKeyHeader, problemResponses } from "../../lib/openapi";
import { providersOfService } from "../services/providers";
import { bookingTarget } from "./from-hold";
import { BookingSchema, CreateBookingSchema } from "./schemas";

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createBooking",
  tags: ["Bookings"],
  summary: "Book an appointment",
  description:
    "Checks the service's availability rules and reserves the slot atomically in the service's calendar; the customer is created or updated by e-mail. A `409 slot_unavailable` carries `reason` `outside_working_hours` or `fully_booked`; on a service with providers also `provider_unavailable`, `provider_busy` or `no_provider_available`. A provider is never booked for two overlapping appointments of different services. `503 unavailable` (retry) when a provider's calendar did not answer; nothing is then held.",
  security: bearerSecurity,
  request: {
    headers: idempotencyKeyHeader,
    body: { required: true, content: { "application/json": { schema: CreateBookingSchema } } },
  },
  responses: {
    201: {
      description: "The booking; `Location` points at it. `Idempotent-Replayed: true` on a replay.",
      content: { "application/json": { schema: BookingSchema } },
    },
    ...problemResponses(409, ...bodyProblems),
  },
});

export const createBooking = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const { businessId } = c.var.caller;
    const outcome = await idempotent(c, body, 201, async (claim) => {
      const target = await bookingTarget(c, body);
      const [[service], [customer], performers] = await c.var.db.batch([
        c.var.db
          .select()
          .from(services)
          .where(and(eq(services.businessId, businessId), eq(services.id, target.serviceId)))
          .limit(1),
        c.var.db
          .select({ id: customers.id })
          .from(customers)
          .where(
            and(eq(customers.businessId, businessId), eq(customers.emailNormalized, body.customerEmail.toLowerCase())),
          )
          .limit(1),
        providersOfService(c.var.db, businessId, target.serviceId),
      ]);
      if (!service) {
        throw new ApiError("service_not_found", `No service ${target.serviceId}.`, {
          errors: [{ path: "serviceId", message: "No such service." }],
        });
      }
      if (!service.active) {
        throw new ApiError("service_inactive", `Service ${target.serviceId} is not active.`, {
          errors: [{ path: "serviceId", message: "The service is not active." }],
        });
      }
      const providers = performers.map((row) => providerSnapshotOf(row.provider));
      if (target.providerId !== undefined && !providers.some((p) => p.id === target.providerId)) {
        throw new ApiError("validation_failed", `Provider ${target.providerId} does not perform this service.`, {
          errors: [{ path: "providerId", message: "Not one of the service's providerIds." }],
        });
      }
      const result = await calendarOf(c.env, businessId, service.id).createBooking({
        service: snapshotOf(service),
        booking: draftOf({ ...body, ...target }),
        customerId: customer?.id ?? null,
        idempotency: claim,
        providers,
        providerId: target.providerId ?? null,
        holdId: body.holdId ?? null,
      });
      const { booking, replayed } = bookingOrThrow(result);
      return { body: booking, location: `/api/v1/bookings/${booking.id}`, replayed };
    });
    outcomeHeaders(c, outcome);
    return c.json(outcome.body, 201);
  });
