import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requestId } from "hono/request-id";
import { adminApp } from "./admin/admin";
import { shardOfPage } from "./booking-page/business";
import { createDb } from "./db/client";
import type { AppEnv } from "./env";
import { shardOfFeed } from "./feeds/records";
import { ApiError } from "./lib/api-error";
import { deprecatedOperations } from "./lib/deprecations";
import { onError, problemResponse } from "./lib/problem-response";
import { validationHook } from "./lib/validation";
import { shardOfLink } from "./manage-links/records";
import { registerMcp } from "./mcp";
import { requireApiKey } from "./middleware/auth";
import { bodyLimit } from "./middleware/body-limit";
import { deprecation } from "./middleware/deprecation";
import { jsonBody } from "./middleware/json-body";
import { readVouch } from "./middleware/key-check";
import { rateLimit } from "./middleware/rate-limit";
import { requestLog } from "./middleware/request-log";
import { requireScope } from "./middleware/scope";
import { corsFromEnv, securityHeaders } from "./middleware/security";
import { onShardOf } from "./middleware/shard";
import { officeApp } from "./office";
import { pagesApp } from "./pages";
import { isForm } from "./pages/manage/negotiate";
import { apiKeysApp } from "./routes/api-keys";
import { auditEventsApp } from "./routes/audit-events";
import { publicApp } from "./routes/booking-page";
import { bookingsApp } from "./routes/bookings";
import { businessApp } from "./routes/business";
import { customersApp } from "./routes/customers";
import { registerDocs } from "./routes/docs";
import { feedsApp } from "./routes/feeds";
import { registerHealth } from "./routes/health";
import { holdsApp } from "./routes/holds";
import { manageApp, manageLinksApp } from "./routes/manage-links";
import { membersApp } from "./routes/members";
import { registerOpenApiDocument } from "./routes/openapi";
import { registerProblems } from "./routes/problems";
import { providersApp } from "./routes/providers";
import { resourcesApp } from "./routes/resources";
import { seriesApp } from "./routes/series";
import { servicesApp } from "./routes/services";
import { visitsApp } from "./routes/visits";
import { waitlistApp } from "./routes/waitlist";
import { webhooksApp } from "./routes/webhooks";
import { documentWebhookEvents } from "./routes/webhooks/events";
import { bookmarkHeader } from "./shards/session";

export const apiBasePath = "/api/v1";

/** The resources that need an API key (and count against its rate limit), by mount path, in document order. */
const keyedApps = {
  "/business": businessApp,
  "/services": servicesApp,
  "/customers": customersApp,
  "/bookings": bookingsApp,
  "/appointments": visitsApp,
  "/series": seriesApp,
  "/waitlist": waitlistApp,
  "/webhooks": webhooksApp,
  "/providers": providersApp,
  "/resources": resourcesApp,
  "/holds": holdsApp,
  "/manage-links": manageLinksApp,
  "/api-keys": apiKeysApp,
  "/audit-events": auditEventsApp,
  "/members": membersApp,
};

/** The shard of a booking page's business, by the slug in its address. */
const pageShard = (c: Context<AppEnv>) => shardOfPage(c.env, c.req.param("slug") ?? "");
/** The shard of the booking a manage link's token names. */
const linkShard = (c: Context<AppEnv>) => shardOfLink(c.env, c.req.param("token") ?? "");

/** Everything under /api/v1. Public routes first; the rest need an API key. */
function createApi() {
  const api = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  registerHealth(api);
  registerProblems(api);
  registerDocs(api);
  // A body is checked after the key (a stranger learns nothing from it) and before any route reads it.
  // The key's scope is checked once per operation (src/middleware/scope.ts), before any body is read.
  const scoped = requireScope(api, apiBasePath);
  for (const path of Object.keys(keyedApps)) {
    api.use(`${path}/*`, bookmarkHeader, requireApiKey, rateLimit, scoped, jsonBody);
  }
  for (const [path, routes] of Object.entries(keyedApps)) api.route(path, routes);
  // Public: the address is the key (src/feeds, src/manage-links); it also names the tenant's shard.
  api.use(
    "/feeds/:file",
    onShardOf((c) => shardOfFeed(c.env, (c.req.param("file") ?? "").replace(/\.ics$/, ""))),
  );
  api.route("/feeds", feedsApp);
  api.use("/manage/:token", onShardOf(linkShard));
  api.use("/manage/:token/*", onShardOf(linkShard));
  // A form is the manage page's own post (src/pages/manage); every other body is the API's JSON.
  api.use("/manage/*", (c, next) => (isForm(c.req.header("Content-Type")) ? next() : jsonBody(c, next)));
  api.route("/manage", manageApp);
  // Public: what booking pages use (src/booking-page); CORS open to any origin.
  api.use("/public/*", jsonBody);
  api.use("/public/:slug/*", onShardOf(pageShard));
  api.route("/public", publicApp);
  // The tools call the REST routes through the whole app (its middleware included).
  registerMcp(api, { fetch: (request, env, ctx) => app.fetch(request, env, ctx), basePath: apiBasePath });
  api.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "An API key of the business account, such as `bk_live_…`.",
  });
  documentWebhookEvents(api);
  registerOpenApiDocument(api);
  return api;
}

/** The Worker's Hono app: shared middleware, the versioned API, one error handler. */
export function createApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  // First, before any middleware rebuilds the request: a tool call's vouch belongs to the one sent.
  app.use(readVouch);
  app.use(requestId({ limitLength: 128 }));
  app.use(requestLog);
  app.use(securityHeaders());
  app.use(corsFromEnv());
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) => {
        throw new ApiError("method_not_allowed", `${c.req.method} is not allowed here; use ${methods.join(", ")}.`, {
          headers: { Allow: methods.join(", ") },
        });
      },
    }),
  );
  app.use(deprecation(apiBasePath, deprecatedOperations));
  app.use(bodyLimit(64 * 1024));
  // The directory, until the request is put on its tenant's shard (the API key, or a public
  // address: src/shards/request.ts).
  app.use(async (c, next) => {
    c.set("db", createDb(c.env.DB));
    await next();
  });
  app.route(apiBasePath, createApi());
  app.route("/internal", adminApp);
  // The booking pages (HTML): outside the versioned API, with their own headers and error pages.
  app.use("/book/:slug", onShardOf(pageShard));
  app.use("/book/:slug/*", onShardOf(pageShard));
  app.route("/book", pagesApp);
  // The office (HTML): members sign in; members live in the directory, so no shard is entered here.
  app.route("/office", officeApp);
  app.notFound((c) =>
    problemResponse(c, new ApiError("not_found", `No route for ${c.req.method} ${new URL(c.req.url).pathname}.`)),
  );
  app.onError(onError);
  return app;
}

export const app = createApp();
