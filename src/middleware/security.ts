import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { createMiddleware } from "hono/factory";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "../env";
import { setFinalHeader } from "../lib/final-header";

/**
 * Headers for a JSON API: nothing may be framed, sniffed or run from a response, and responses
 * that carry a business's data are never cached by shared caches.
 */
export const securityHeaders = (): MiddlewareHandler<AppEnv> => {
  const headers = secureHeaders({
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    xFrameOptions: "DENY",
    crossOriginResourcePolicy: "same-origin",
    // A route that sets its own policy (the docs page) keeps it.
    overwrite: false,
  });
  return async (c, next) => {
    // The booking pages set their own (src/pages/headers.ts): they are framed, styled and scripted.
    if (c.req.path.startsWith("/book/")) return next();
    await headers(c, next);
    if (c.req.header("Authorization") && !c.res.headers.has("Cache-Control"))
      setFinalHeader(c, "Cache-Control", "no-store");
  };
};

/**
 * CORS for browser clients, off unless `CORS_ORIGINS` lists origins (comma-separated, or `*`).
 * API keys are secrets: browsers should only reach the API from the business's own origins.
 */
export const corsFromEnv = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    // The booking pages' public JSON answers every origin itself (src/routes/booking-page).
    if (c.req.path.startsWith("/api/v1/public/")) return next();
    const allowed = (c.env.CORS_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean);
    if (allowed.length === 0) return next();
    return cors({
      origin: allowed.includes("*") ? "*" : allowed,
      allowHeaders: [
        "Authorization",
        "Content-Type",
        "Idempotency-Key",
        "If-Match",
        "If-None-Match",
        "X-Request-Id",
        "X-D1-Bookmark",
      ],
      allowMethods: ["GET", "POST", "PATCH", "DELETE", "OPTIONS"],
      exposeHeaders: [
        "Location",
        "Link",
        "ETag",
        "X-Request-Id",
        "Idempotent-Replayed",
        "Retry-After",
        "RateLimit",
        "RateLimit-Policy",
        "X-D1-Bookmark",
      ],
      maxAge: 600,
    })(c, next);
  });

/**
 * Whether a form post comes from this origin's own page. Browsers send `Sec-Fetch-Site` (it must
 * be `same-origin`) or at least `Origin` (it must be this one; a capability page's
 * `no-referrer` makes it `null`, so that page's posts rely on the first). A request with neither
 * is no browser's form: it cannot carry a visitor's anything, and is let through. (`hono/csrf`
 * would refuse that one, and checks only form and text bodies: docs/businesses.md.)
 */
export function sameOrigin(request: Request): boolean {
  const site = request.headers.get("Sec-Fetch-Site");
  if (site !== null) return site === "same-origin";
  const origin = request.headers.get("Origin");
  if (origin === null) return true;
  return origin === new URL(request.url).origin;
}
