/**
 * The REST API, called in-process. A tool does not touch calendars or D1 itself: it sends the
 * request a REST client would send, with the caller's own `Authorization`, through the same
 * Worker app, so rate limits, validation, idempotency and every booking rule are the REST
 * operation's own. The key, checked for the MCP request a moment ago, is not looked up again.
 */
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { vouchFor } from "../middleware/key-check";

export type RestCall = {
  method: string;
  /** Under /api/v1, path parameters already encoded. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  idempotencyKey?: string;
};

export type RestAnswer = {
  status: number;
  /** The parsed JSON body; undefined when there was none or it was not JSON. */
  body: unknown;
  headers: Headers;
};

export type Rest = (call: RestCall) => Promise<RestAnswer>;

/** How the MCP server reaches the REST API: the Worker app's own `fetch`, and where the API is mounted. */
export type RestApp = {
  fetch: (request: Request, env: Env, ctx: Context<AppEnv>["executionCtx"]) => Response | Promise<Response>;
  basePath: string;
};

/** Headers of the MCP request that the REST request carries on. */
const forwarded = ["Authorization", "CF-Connecting-IP"];

/**
 * Sends REST requests on behalf of this MCP request: same origin, same key, and the MCP request's
 * id as `X-Request-Id`, so the access log ties a tool call's REST requests to it.
 */
export function restFor(c: Context<AppEnv>, restApp: RestApp): Rest {
  const origin = new URL(c.req.url).origin;
  return async ({ method, path, query, body, idempotencyKey }) => {
    const url = new URL(`${origin}${restApp.basePath}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
    const headers = new Headers({ "X-Request-Id": c.var.requestId });
    for (const name of forwarded) {
      const value = c.req.header(name);
      if (value !== undefined) headers.set(name, value);
    }
    if (idempotencyKey !== undefined) headers.set("Idempotency-Key", idempotencyKey);
    let payload: string | undefined;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers.set("Content-Type", "application/json");
    }
    const request = new Request(url, { method, headers, body: payload });
    vouchFor(request, c.var.caller);
    const response = await restApp.fetch(request, c.env, c.executionCtx);
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed, headers: response.headers };
  };
}
