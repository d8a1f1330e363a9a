import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { services } from "../../db/schema";
import type { AppEnv } from "../../env";
import { newId } from "../../lib/ids";
import { bearerSecurity, bodyProblems, problemResponses } from "../../lib/openapi";
import { CreateServiceSchema, ServiceSchema, toService } from "./schemas";

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createService",
  tags: ["Services"],
  summary: "Add a service to the catalog",
  security: bearerSecurity,
  request: { body: { required: true, content: { "application/json": { schema: CreateServiceSchema } } } },
  responses: {
    201: {
      description: "The new service; `Location` points at it.",
      content: { "application/json": { schema: ServiceSchema } },
    },
    ...problemResponses(...bodyProblems),
  },
});

export const createService = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const now = new Date().toISOString();
    const [row] = await c.var.db
      .insert(services)
      .values({
        ...body,
        description: body.description ?? null,
        slotIntervalMinutes: body.slotIntervalMinutes ?? body.durationMinutes,
        id: newId("service"),
        businessId: c.var.caller.businessId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const service = toService(row as NonNullable<typeof row>);
    c.header("Location", `/api/v1/services/${service.id}`);
    return c.json(service, 201);
  });
