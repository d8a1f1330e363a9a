import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import type { AppEnv } from "../../env";
import { answerOnce } from "../../lib/idempotency";
import { CancelVisitSchema, VisitSchema } from "../../schemas/visits";
import { needs } from "../../types/scopes";
import { cancelVisit } from "../../visits/cancel";
import { cancelOperation } from "../operations";
import { presentVisit } from "./present";

const route = createRoute({
  method: "post",
  path: "/{id}/cancel",
  operationId: "cancelAppointment",
  tags: ["Appointments"],
  summary: "Cancel a visit",
  description: [
    "Cancels every segment that is PENDING or CONFIRMED, each freeing its slot at once; segments already cancelled, completed or no-show stay as they are. When no segment is left to cancel: 409 `invalid_transition`. The body is optional.",
    "If a calendar does not answer midway (503), the segments cancelled so far stay cancelled; the same request again cancels the rest. `Idempotency-Key` works as on `POST /bookings`.",
  ].join("\n\n"),
  security: needs("bookings:write"),
  ...cancelOperation("apt_01jd3k5v7q8r9s0t1u2v3w4x5y", CancelVisitSchema, {
    description: "The visit, cancelled. `Idempotent-Replayed: true` on a replay.",
    schema: VisitSchema,
  }),
});

export const registerCancelAppointment = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    return answerOnce(c, body, 200, async () => {
      const visit = await cancelVisit(
        c.env,
        c.var.db,
        c.var.caller.businessId,
        id,
        body.reason ?? null,
        actorOf(c.var.caller),
      );
      return { body: await presentVisit(c.env, c.var.caller, visit) };
    });
  });
