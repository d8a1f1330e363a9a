import { z } from "../../lib/zod";

/** The path of one of a provider's calendars: `{id}` the provider, `{calendarId}` the calendar. */
export const calendarParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "id", in: "path" }, example: "prv_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
  calendarId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "calendarId", in: "path" }, example: "cal_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
});
