import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { authorOf } from "../../access/actor";
import type { AppEnv } from "../../env";
import { answerOnce } from "../../lib/idempotency";
import { CreateVisitSchema, MAX_SEGMENTS, VisitSchema } from "../../schemas/visits";
import { needs } from "../../types/scopes";
import { createVisit } from "../../visits/create";
import { idempotentCreate } from "../operations";
import { presentVisit } from "./present";

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createAppointment",
  tags: ["Appointments"],
  summary: "Book a visit of several services back to back",
  description: [
    `A visit is 1 to ${MAX_SEGMENTS} segments, each a booking of its own service (with \`appointmentId\`): the first starts at \`startTime\` and must be a slot of its service; each next one starts where the previous one ends and must lie inside its service's working hours (not on its slot grid). Every segment is checked by every rule of its service, person and resources, as \`POST /bookings\` checks a booking; a person doing consecutive segments is not blocked by their own buffers between them.`,
    "All or none: either every segment is booked, or nothing is held. A refusal is a 409 `slot_unavailable` with `segment` (0-based) and `reason`; a problem with a segment's input is a 422 naming `segments.<i>.<field>`. `503 unavailable` (retry) when a calendar did not answer; nothing is then held.",
    "`Idempotency-Key` works as on `POST /bookings`.",
  ].join("\n\n"),
  security: needs("bookings:write"),
  ...idempotentCreate(
    CreateVisitSchema,
    "The visit with every segment; `Location` points at it. `Idempotent-Replayed: true` on a replay.",
    VisitSchema,
  ),
});

export const registerCreateAppointment = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    return answerOnce(c, body, 201, async (lock) => {
      const { visit, replayed } = await createVisit(c.env, c.var.db, authorOf(c.var.caller), body, lock);
      return {
        body: await presentVisit(c.env, c.var.caller, visit),
        location: `/api/v1/appointments/${visit.id}`,
        replayed,
      };
    });
  });
