import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import type { AppEnv } from "../../env";
import { answerOnce } from "../../lib/idempotency";
import { CancelSeriesSchema, SeriesSchema } from "../../schemas/series";
import { cancelSeries } from "../../series/cancel";
import { needs } from "../../types/scopes";
import { cancelOperation } from "../operations";
import { presentSeries } from "./present";

const route = createRoute({
  method: "post",
  path: "/{id}/cancel",
  operationId: "cancelSeries",
  tags: ["Series"],
  summary: "Cancel a series from an instant on",
  description: [
    "Cancels every occurrence starting at or after `from` (default now) that is PENDING or CONFIRMED, each freeing its slot at once; earlier ones stay. When none is left to cancel: 409 `invalid_transition`. The body is optional.",
    "If a calendar does not answer midway (503), the occurrences cancelled so far stay cancelled; the same request again cancels the rest. `Idempotency-Key` works as on `POST /bookings`.",
  ].join("\n\n"),
  security: needs("bookings:write"),
  ...cancelOperation("ser_01jd3k5v7q8r9s0t1u2v3w4x5y", CancelSeriesSchema, {
    description: "The series, with the occurrences cancelled.",
    schema: SeriesSchema,
  }),
});

export const registerCancelSeries = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    return answerOnce(c, body, 200, async () => {
      const from = body.from ? Date.parse(body.from) : Date.now();
      const found = await cancelSeries(
        c.env,
        c.var.db,
        c.var.caller.businessId,
        id,
        {
          from,
          reason: body.reason ?? null,
        },
        actorOf(c.var.caller),
      );
      return { body: await presentSeries(c.env, c.var.caller, found) };
    });
  });
