import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { type DeprecatedOperation, routePattern } from "../lib/deprecations";

/** `Deprecation: @<unix seconds>` (RFC 9745), `Sunset: <HTTP-date>` (RFC 8594) and their links. */
export function deprecationHeaders(operation: DeprecatedOperation): [string, string][] {
  const headers: [string, string][] = [
    ["Deprecation", `@${Math.floor(Date.parse(operation.deprecatedAt) / 1000)}`],
    ["Link", `<${operation.notice}>; rel="deprecation"; type="text/html"`],
  ];
  if (operation.sunsetAt) {
    headers.push(["Sunset", new Date(operation.sunsetAt).toUTCString()]);
    headers.push(["Link", `<${operation.notice}>; rel="sunset"; type="text/html"`]);
  }
  return headers;
}

/**
 * Adds the deprecation headers to every answer of a listed operation, errors included, matched
 * by method and route pattern after the route ran (HEAD counts as GET).
 */
export const deprecation = (basePath: string, operations: readonly DeprecatedOperation[]) => {
  const byRoute = new Map(
    operations.map((o) => [`${o.method.toUpperCase()} ${routePattern(basePath, o.path)}`, deprecationHeaders(o)]),
  );
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    if (byRoute.size === 0) return;
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    const headers = byRoute.get(`${method} ${c.req.routePath}`);
    // Link is appended: list answers already carry pagination links.
    for (const [name, value] of headers ?? []) c.res.headers.append(name, value);
  });
};
