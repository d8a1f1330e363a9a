import type { OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { insufficientScope } from "../access/keys";
import { checkRole, lacksScope } from "../access/roles";
import type { AppEnv } from "../env";
import { type Scope, scopes } from "../types/scopes";
import { keyLookup, settle } from "./key-check";

/** The scope a route's `security` names (`[{ bearerAuth: [scope] }]`), if it names one. */
function scopeOf(security: unknown): Scope | undefined {
  if (!Array.isArray(security)) return undefined;
  const named = (security[0] as { bearerAuth?: unknown } | undefined)?.bearerAuth;
  const scope = Array.isArray(named) ? named[0] : undefined;
  return (scopes as readonly unknown[]).includes(scope) ? (scope as Scope) : undefined;
}

/** An operation's scope and its name as the role check knows it (`GET /bookings/:id`). */
type Operation = [Scope, string];

/** The operations of `api` by method and path, each with the scope its document entry names. */
function scopeRouter(api: OpenAPIHono<AppEnv>): TrieRouter<Operation> {
  const router = new TrieRouter<Operation>();
  for (const definition of api.openAPIRegistry.definitions) {
    if (definition.type !== "route") continue;
    const { method, path, security } = definition.route;
    const scope = scopeOf(security);
    const routePath = path.replaceAll(/{([^}]+)}/g, ":$1");
    if (scope) router.add(method.toUpperCase(), routePath, [scope, `${method.toUpperCase()} ${routePath}`]);
  }
  return router;
}

/**
 * Refuses a request whose key lacks the scope its operation needs: once per request, before the
 * handler and before any body is read, from the same `security` entries the OpenAPI document
 * shows (so the document and the check cannot disagree), then a signed-in member's role. The operations are read from `api`'s
 * registry at its first request, once all routes are registered. `base` is where `api` is mounted.
 */
export function requireScope(api: OpenAPIHono<AppEnv>, base: string): MiddlewareHandler<AppEnv> {
  let router: TrieRouter<Operation> | undefined;
  return async (c, next) => {
    router ??= scopeRouter(api);
    const path = c.req.path.slice(base.length) || "/";
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    const [operation, params] = router.match(method, path)[0][0] ?? [];
    const scope = operation?.[0];
    const { member, businessId } = c.var.caller;
    if (scope && lacksScope(c.var.caller, scope, operation?.[1] ?? "")) {
      const check = c.var.keyCheck;
      if (check?.owed) settle(check, (await keyLookup(c.var.db).execute({ keyHash: check.keyHash }))[0]);
      throw insufficientScope(scope);
    }
    // A signed-in member's role, past its scopes (src/access/roles.ts): once, before the handler.
    if (member && operation) {
      const id = (params as Record<string, string> | undefined)?.id;
      // A copy: the body's own checks (json-body.ts) and the validator read it after this.
      const body = () =>
        c.req.raw
          .clone()
          .json()
          .catch(() => ({}));
      await checkRole(c.var.db, businessId, member, operation[1], id, body);
    }
    await next();
  };
}
