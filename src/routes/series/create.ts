import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { authorOf } from "../../access/actor";
import type { AppEnv } from "../../env";
import { answerOnce } from "../../lib/idempotency";
import { CreateSeriesSchema, SeriesSchema } from "../../schemas/series";
import { createSeries } from "../../series/create";
import { needs } from "../../types/scopes";
import { idempotentCreate } from "../operations";
import { presentSeries } from "./present";

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createSeries",
  tags: ["Series"],
  summary: "Book a recurring series",
  description: [
    "Expands `recurrence` from the first occurrence (`startTime`–`endTime`) and books every occurrence as a booking of the service with `seriesId`, each checked by every rule of a new booking (on the slot grid, its person and resources). Every occurrence keeps the first one's wall-clock time in the service's time zone across DST changes.",
    "`onConflict: reject` (default): all or none; a 409 `slot_unavailable` lists **every** conflicting occurrence in `conflicts: [{startTime, reason}]` (the one the calendar refused alone if the slot calendar cannot be read at that moment). `onConflict: skip`: the free occurrences are booked, the others listed in `skipped` (a 409 when none is free). A rule the API does not take, or one past its bounds, is a 422 at `recurrence`.",
    "`Idempotency-Key` works as on `POST /bookings`.",
  ].join("\n\n"),
  security: needs("bookings:write"),
  ...idempotentCreate(
    CreateSeriesSchema,
    "The series; `Location` points at it. `Idempotent-Replayed: true` on a replay.",
    SeriesSchema,
  ),
});

export const registerCreateSeries = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    return answerOnce(c, body, 201, async (lock) => {
      const { series, replayed } = await createSeries(c.env, c.var.db, authorOf(c.var.caller), body, lock);
      return {
        body: await presentSeries(c.env, c.var.caller, series),
        location: `/api/v1/series/${series.id}`,
        replayed,
      };
    });
  });
