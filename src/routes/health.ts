import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { responseHeaders } from "../lib/openapi";
import { z } from "../lib/zod";

const route = createRoute({
  method: "get",
  path: "/health",
  operationId: "getHealth",
  tags: ["Meta"],
  security: [],
  summary: "Liveness check",
  description: "Answers without authentication and without touching storage.",
  responses: {
    200: {
      description: "The Worker is serving.",
      headers: responseHeaders(),
      content: { "application/json": { schema: z.object({ status: z.literal("ok") }).openapi("Health") } },
    },
  },
});

export const registerHealth = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, (c) => {
    // Monitors probe it every few seconds: a line each would drown the request log and cost more
    // than the answer (docs/operations.md, "The request log"). A refused /health is still logged.
    c.set("unlogged", true);
    return c.json({ status: "ok" as const }, 200);
  });
