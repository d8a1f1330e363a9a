import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import type { AppEnv } from "../../env";
import { needs } from "../../types/scopes";
import { leaveWaitlist } from "../../waitlist/records";
import { deleteById } from "../operations";

const route = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "leaveWaitlist",
  tags: ["Waitlist"],
  summary: "Take an entry off the waitlist",
  description:
    "The entry becomes CANCELLED and stays readable (until 30 days after its slot ended); an offered hold is released and its seat offered to the next entry. Idempotent: an entry already BOOKED, EXPIRED (its slot begun included) or CANCELLED stays as it is, and one dropped 30 days after its slot is gone (204).",
  security: needs("bookings:write"),
  ...deleteById("wtl_01jd3k5v7q8r9s0t1u2v3w4x5y", "Taken off (or already off)."),
});

export const registerLeaveWaitlist = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    await leaveWaitlist(c.env, c.var.db, c.var.caller.businessId, c.req.valid("param").id, actorOf(c.var.caller));
    return c.body(null, 204);
  });
