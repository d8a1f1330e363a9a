import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { VisitSchema } from "../../schemas/visits";
import { needs } from "../../types/scopes";
import { loadVisit } from "../../visits/records";
import { readById } from "../operations";
import { presentVisit } from "./present";

const route = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getAppointment",
  tags: ["Appointments"],
  summary: "Get a visit",
  description:
    "The visit with its segments in order, each as it stands now (a segment may have been moved or cancelled on its own).",
  security: needs("bookings:read"),
  ...readById("apt_01jd3k5v7q8r9s0t1u2v3w4x5y", "The visit.", VisitSchema),
});

export const registerGetAppointment = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const visit = await loadVisit(c.var.db, c.var.caller.businessId, c.req.valid("param").id);
    return c.json(await presentVisit(c.env, c.var.caller, visit), 200);
  });
