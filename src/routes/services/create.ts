import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import type { AppEnv } from "../../env";
import { bodyProblems, jsonResponse, problemResponses } from "../../lib/openapi";
import { CreateServiceSchema, ServiceSchema } from "../../schemas/services";
import { addService } from "../../services/records";
import { needs } from "../../types/scopes";

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createService",
  tags: ["Services"],
  summary: "Add a service to the catalog",
  description:
    "Rules the schema cannot express: `slotIntervalMinutes` defaults to `durationMinutes`; in `weeklySchedule` an interval ends after it starts (intervals do not cross midnight; `24:00` ends a day) and the intervals of one day do not overlap (else 422 at the interval's path).",
  security: needs("catalog:write"),
  request: { body: { required: true, content: { "application/json": { schema: CreateServiceSchema } } } },
  responses: {
    201: jsonResponse("The new service; `Location` points at it.", ServiceSchema, { required: ["Location"] }),
    ...problemResponses(...bodyProblems),
  },
});

export const registerCreateService = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const service = await addService(c.var.db, c.var.caller.businessId, c.req.valid("json"), actorOf(c.var.caller));
    c.header("Location", `/api/v1/services/${service.id}`);
    return c.json(service, 201);
  });
