/**
 * Operator routes outside the public API and its OpenAPI document. They answer only to
 * `Authorization: Bearer <ADMIN_TOKEN>` (a Worker secret); without the secret they do not exist.
 */

import { zValidator } from "@hono/zod-validator";
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { importBookings } from "../bookings/import";
import { reconcile, reconcileClaimed } from "../calendar";
import { createDb } from "../db/client";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/api-error";
import { sha256Hex } from "../lib/crypto";
import { assertWellFormed, fieldErrors } from "../lib/validation";
import { z } from "../lib/zod";
import { recountLists } from "../lists/counts";
import { jsonBody } from "../middleware/json-body";
import { BookingRequestFields } from "../schemas/bookings";
import { mergeReports, onEveryShard } from "../shards/every";
import { probeShards } from "../shards/probe";
import { enterShard } from "../shards/request";
import { directoryOf, everyShard } from "../shards/shards";
import { relocationsApp } from "./relocations";

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

const ImportSchema = z.strictObject({
  bookings: z
    .array(BookingRequestFields.omit({ serviceId: true, holdId: true }).required({ startTime: true, endTime: true }))
    .min(1)
    .max(1000),
});

/** `/internal`: reconciliation of the calendars with D1, the businesses and their shards, imports of existing bookings. */
export const adminApp = new Hono<AppEnv>();
adminApp.use(requireAdminToken, jsonBody);
adminApp.get("/reconcile", async (c) => {
  // Every shard in turn, its tenants' calendars with it: one report of them all.
  const shards = await onEveryShard(c.env, (tenant) =>
    Promise.all([reconcile(tenant), reconcileClaimed(tenant), recountLists(createDb(tenant.DB))]),
  );
  const calendars = mergeReports(shards.map(([report]) => report));
  const claimed = mergeReports(shards.map(([, report]) => report));
  const countDrift = shards.flatMap(([, , drift]) => drift);
  return c.json({
    ...calendars,
    claimed,
    // The lists' kept totals recounted from the rows: every count that differs (none when exact).
    counts: { drift: countDrift },
    consistent: calendars.consistent && claimed.consistent && countDrift.length === 0,
  });
});
/** The directory's businesses in id order, each with its shard, and the count per shard (where businesses live). */
adminApp.get("/businesses", async (c) => {
  const after = c.req.query("after") ?? "";
  const limit = Number(c.req.query("limit") ?? 50);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100 || after.length > 64) {
    throw new ApiError("validation_failed", "`limit` is 1–100 and `after` an account id.");
  }
  const directory = directoryOf(c.env);
  const [page, counts] = await directory.batch([
    directory.prepare("SELECT id, name, shard FROM businesses WHERE id > ? ORDER BY id LIMIT ?").bind(after, limit),
    directory.prepare("SELECT shard, count(*) AS n FROM businesses GROUP BY shard"),
  ]);
  const data = (page?.results ?? []) as { id: string }[];
  const counted = (counts?.results ?? []) as { shard: number; n: number }[];
  const shards = everyShard(c.env).map((shard) => ({
    shard,
    businesses: counted.find((row) => row.shard === shard)?.n ?? 0,
  }));
  return c.json({ data, shards, next: data.length === limit ? data.at(-1)?.id : null });
});

adminApp.route("/businesses", relocationsApp);

adminApp.post(
  "/services/:serviceId/import",
  zValidator("json", ImportSchema, (result) => {
    if (!result.success) {
      throw new ApiError("validation_failed", "The request body is invalid.", { errors: fieldErrors(result.error) });
    }
    assertWellFormed(result.data);
  }),
  async (c) => {
    const serviceId = c.req.param("serviceId");
    // The service's tenant: the shard that has it (an unknown id stays on the directory: a 404).
    const shard = await probeShards(c.env, "services", "id", serviceId);
    if (shard !== undefined) enterShard(c, shard);
    return c.json(await importBookings(c.env, c.var.db, serviceId, c.req.valid("json").bookings));
  },
);
