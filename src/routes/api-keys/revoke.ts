import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { revokeKey } from "../../access/keys";
import type { AppEnv } from "../../env";
import { needs } from "../../types/scopes";
import { deleteById } from "../operations";

const route = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "revokeApiKey",
  tags: ["API keys"],
  summary: "Revoke an API key",
  description:
    "The key's next request is a 401, whichever isolate serves it. Revoking a revoked key again is a 204 that changes nothing. A key may revoke itself.",
  security: needs("keys:write"),
  ...deleteById("key_01jd3k5v7q8r9s0t1u2v3w4x5y", "Revoked."),
});

export const registerRevokeApiKey = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    await revokeKey(c.env, c.var.db, c.var.caller, c.req.valid("param").id);
    return c.body(null, 204);
  });
