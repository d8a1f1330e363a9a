import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

/**
 * One structured JSON line per request: request id, business, matched route, status, duration,
 * and the rows D1 read for the request's batched reads (the lists; D1 bills rows read).
 * Never the Authorization header, bodies or query strings (they may hold personal data).
 */
/** The liveness check's path: GET /api/v1/health. */
const LIVENESS_PATH = "/api/v1/health";

export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = Date.now();
  await next();
  // A liveness probe that succeeds is not logged: monitors send one every few seconds, which
  // would drown the log, and the line costs more than the answer (docs/performance.md).
  if (c.res.status === 200 && c.req.method === "GET" && c.req.path === LIVENESS_PATH) return;
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
