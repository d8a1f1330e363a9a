import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { WaitlistEntrySchema } from "../../schemas/waitlist";
import { needs } from "../../types/scopes";
import { loadWaitlistEntry } from "../../waitlist/records";
import { readById } from "../operations";

const route = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getWaitlistEntry",
  tags: ["Waitlist"],
  summary: "Get a waitlist entry",
  description:
    "The entry as its service's calendar has it now: its position while WAITING, its hold once OFFERED. An entry still WAITING when its slot begins reads EXPIRED from then on (no event is sent). Entries are dropped 30 days after their slot ended (then 404).",
  security: needs("bookings:read"),
  ...readById("wtl_01jd3k5v7q8r9s0t1u2v3w4x5y", "The entry.", WaitlistEntrySchema),
});

export const registerGetWaitlistEntry = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { entry } = await loadWaitlistEntry(c.env, c.var.db, c.var.caller.businessId, c.req.valid("param").id);
    return c.json(entry, 200);
  });
