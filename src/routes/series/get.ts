import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { SeriesSchema } from "../../schemas/series";
import { loadSeries } from "../../series/records";
import { needs } from "../../types/scopes";
import { readById } from "../operations";
import { presentSeries } from "./present";

const route = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getSeries",
  tags: ["Series"],
  summary: "Get a series",
  description:
    "The series with its occurrences by start, each as it stands now (one may have been moved or cancelled on its own).",
  security: needs("bookings:read"),
  ...readById("ser_01jd3k5v7q8r9s0t1u2v3w4x5y", "The series.", SeriesSchema),
});

export const registerGetSeries = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const found = await loadSeries(c.var.db, c.var.caller.businessId, c.req.valid("param").id);
    return c.json(await presentSeries(c.env, c.var.caller, found), 200);
  });
