/** A person's calendar feed as the API shows it once, when it is issued, and its iCalendar answers. */
import { feedTokenPattern } from "../feeds/records";
import { responseHeaders } from "../lib/openapi";
import { z } from "../lib/zod";

const exampleToken = "cal_9fJxQ2b7Lr0VdS4kTn8WcYh1Ze6PqA3uMi5oBg_KtXw";

export const CalendarFeedSchema = z
  .object({
    providerId: z.string().openapi({ example: "prv_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    url: z.string().openapi({
      description:
        "The feed's secret address, for a calendar app's subscription. Shown only now: it is stored as a hash. Anyone with it reads the person's bookings (times, services, customers' first names).",
      example: `https://booking.example.com/api/v1/feeds/${exampleToken}.ics`,
    }),
  })
  .openapi("CalendarFeed");

/** The `{token}` of a feed's address. */
export const feedTokenParam = z.object({
  token: z
    .string()
    .regex(feedTokenPattern)
    .openapi({ param: { name: "token", in: "path" }, example: exampleToken }),
});

/** A 200 with an iCalendar file and its ETag (`rateLimited`: the API key's budget applies). */
export const calendarResponse = (description: string, rateLimited: boolean) => ({
  description,
  headers: responseHeaders(rateLimited ? ["RateLimit-Policy", "ETag"] : ["ETag"]),
  content: {
    "text/calendar": {
      schema: z.string().openapi({
        description: "RFC 5545: one VEVENT per booking, times in UTC.",
        example:
          "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//booking-api//calendar feed//EN\r\nBEGIN:VEVENT\r\nUID:bkg_01jd3k5v7q8r9s0t1u2v3w4x5y\r\nDTSTAMP:20261124T090000Z\r\nDTSTART:20261201T100000Z\r\nDTEND:20261201T103000Z\r\nSUMMARY:Haircut — Ada\r\nSTATUS:CONFIRMED\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
      }),
    },
  },
});
