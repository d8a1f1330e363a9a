import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { providers } from "../../db/schema";
import type { AppEnv } from "../../env";
import { etagOf } from "../../lib/etag";
import { newId } from "../../lib/ids";
import { bearerSecurity, bodyProblems, jsonResponse, problemResponses } from "../../lib/openapi";
import { configureCalendar } from "./configure";
import { CreateProviderSchema, ProviderSchema, toProvider } from "./schemas";

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createProvider",
  tags: ["Providers"],
  summary: "Add a provider",
  description: "A person (or a room, a chair) who performs services; link it to services with their `providerIds`.",
  security: bearerSecurity,
  request: { body: { required: true, content: { "application/json": { schema: CreateProviderSchema } } } },
  responses: {
    201: jsonResponse("The new provider; `Location` points at it.", ProviderSchema, { required: ["Location", "ETag"] }),
    ...problemResponses(...bodyProblems, 503),
  },
});

export const createProvider = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const now = new Date().toISOString();
    const [row] = await c.var.db
      .insert(providers)
      .values({
        ...body,
        email: body.email ?? null,
        id: newId("provider"),
        businessId: c.var.caller.businessId,
        version: 1,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const stored = row as NonNullable<typeof row>;
    await configureCalendar(c.env, stored);
    c.header("Location", `/api/v1/providers/${stored.id}`);
    c.header("ETag", etagOf(stored.version));
    return c.json(toProvider(stored), 201);
  });
