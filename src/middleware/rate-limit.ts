import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/api-error";
import { setFinalHeader } from "../lib/final-header";

/** A budget as `<requests>/<seconds>` (e.g. "600/60"), mirroring a `[[ratelimits]]` binding. */
function parseBudget(value: string | undefined, fallback: string): { limit: number; period: number } {
  const [limit, period] = (value ?? fallback).split("/").map(Number);
  return { limit: limit || 1, period: period || 60 };
}

/**
 * Per-API-key budgets, one for reads (GET, HEAD) and one for writes, enforced by the Workers
 * Rate Limiting bindings. Every response (problem answers included) states its policy (IETF RateLimit headers draft); an
 * exhausted budget answers 429 with `Retry-After`.
 */
export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const isRead = c.req.method === "GET" || c.req.method === "HEAD";
  const name = isRead ? "reads" : "writes";
  const limiter = isRead ? c.env.READ_LIMITER : c.env.WRITE_LIMITER;
  const { limit, period } = parseBudget(isRead ? c.env.READ_BUDGET : c.env.WRITE_BUDGET, isRead ? "600/60" : "300/60");
  const policy = `"${name}";q=${limit};w=${period}`;
  const { success } = await limiter.limit({ key: c.var.caller.keyId });
  if (!success) {
    throw new ApiError("rate_limited", `The ${name} budget of this API key (${limit} per ${period} s) is used up.`, {
      headers: { "Retry-After": String(period), "RateLimit-Policy": policy, RateLimit: `"${name}";r=0;t=${period}` },
    });
  }
  await next();
  // Set after the handler: a problem answer is a new Response that would not keep an earlier header.
  setFinalHeader(c, "RateLimit-Policy", policy);
});
