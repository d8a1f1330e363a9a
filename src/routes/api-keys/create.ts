import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { CreateApiKeySchema, CreatedApiKeySchema } from "../../access/key-schemas";
import { createKey, MAX_API_KEYS } from "../../access/keys";
import type { AppEnv } from "../../env";
import { bodyProblems, jsonResponse, problemResponses } from "../../lib/openapi";
import { needs } from "../../types/scopes";

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createApiKey",
  tags: ["API keys"],
  summary: "Create an API key",
  description: `A new key with the scopes asked for, answered in \`key\` this once (only its SHA-256 is stored). A key never gets a scope the calling key lacks: asking for one is a 403 \`insufficient_scope\` naming it. Not idempotent: the key is never stored, so no answer could be replayed; a retry makes another key (revoke the one not used). A business has at most ${MAX_API_KEYS} live keys: one more is a 409 \`api_key_limit\`.`,
  security: needs("keys:write"),
  request: { body: { required: true, content: { "application/json": { schema: CreateApiKeySchema } } } },
  responses: {
    201: jsonResponse("The key, shown once.", CreatedApiKeySchema, { required: ["Location"] }),
    ...problemResponses(409, ...bodyProblems),
  },
});

export const registerCreateApiKey = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const key = await createKey(c.env, c.var.db, c.var.caller, c.req.valid("json"));
    c.header("Location", `/api/v1/api-keys/${key.id}`);
    c.header("Cache-Control", "no-store");
    return c.json(key, 201);
  });
