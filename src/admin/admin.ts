/**
 * Operator routes outside the public API and its OpenAPI document. They answer only to
 * `Authorization: Bearer <ADMIN_TOKEN>` (a Worker secret); without the secret they do not exist.
 */
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { reconcile } from "../calendar/reconcile";
import type { AppEnv } from "../env";
import { sha256Hex } from "../lib/crypto";
import { ApiError } from "../lib/errors";

const requireAdminToken = createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.env.ADMIN_TOKEN;
  if (!expected) throw new ApiError("not_found", `No route for ${c.req.method} ${new URL(c.req.url).pathname}.`);
  const sent = /^Bearer +(\S+)$/i.exec(c.req.header("Authorization") ?? "")?.[1] ?? "";
  // Compare digests, not the strings, so timing says nothing about the token.
  if ((await sha256Hex(sent)) !== (await sha256Hex(expected))) {
    throw new ApiError("unauthorized", "Send the admin token.", {
      headers: { "WWW-Authenticate": 'Bearer realm="admin"' },
    });
  }
  await next();
});

/** `/internal`: reconciliation of the calendars with D1. */
export const adminApp = new Hono<AppEnv>();
adminApp.use(requireAdminToken);
adminApp.get("/reconcile", async (c) => c.json(await reconcile(c.env)));
