import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import type { AppEnv } from "../../env";
import { etagOf } from "../../lib/etag";
import { bodyProblems, jsonResponse, problemResponses } from "../../lib/openapi";
import { addProvider } from "../../providers/records";
import { needs } from "../../types/scopes";
import { CreateProviderSchema, ProviderSchema } from "./schemas";

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createProvider",
  tags: ["Providers"],
  summary: "Add a provider",
  description: "A person (or a room, a chair) who performs services; link it to services with their `providerIds`.",
  security: needs("catalog:write"),
  request: { body: { required: true, content: { "application/json": { schema: CreateProviderSchema } } } },
  responses: {
    201: jsonResponse("The new provider; `Location` points at it.", ProviderSchema, { required: ["Location", "ETag"] }),
    ...problemResponses(...bodyProblems, 503),
  },
});

export const registerCreateProvider = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { provider, version } = await addProvider(
      c.env,
      c.var.db,
      c.var.caller.businessId,
      c.req.valid("json"),
      actorOf(c.var.caller),
    );
    c.header("Location", `/api/v1/providers/${provider.id}`);
    c.header("ETag", etagOf(version));
    return c.json(provider, 201);
  });
