import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

/**
 * One structured JSON line per request: request id, business, matched route, status, duration,
 * and the rows D1 read for the request's batched reads (the lists; D1 bills rows read).
 * Never the Authorization header, bodies or query strings (they may hold personal data).
 */
export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = Date.now();
  await next();
  // A route may ask for its successful answers not to be logged (`unlogged`: the liveness check).
  if (c.var.unlogged && c.res.status < 400) return;
  console.log(
    JSON.stringify({
      level: c.res.status >= 500 ? "error" : "info",
      msg: "request",
      requestId: c.var.requestId,
      businessId: c.var.caller?.businessId,
      method: c.req.method,
      route: c.req.routePath,
      status: c.res.status,
      durationMs: Date.now() - started,
      rowsRead: c.var.rowsRead,
    }),
  );
});
