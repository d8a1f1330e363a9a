/**
 * A person's calendars: their secret feed as the API shows it once, when it is issued, and its
 * iCalendar answers; their own calendars (CalDAV): what connects one, how one is shown, and its
 * webhook event.
 */

import { utcTimestamp } from "../lib/datetime";
import { responseHeaders } from "../lib/openapi";
import { z } from "../lib/zod";
import { feedTokenPattern } from "../types/feed";
import { isLoopbackReceiver, publicReceiverProblem } from "../webhooks/receiver-url";

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

/**
 * Why a calendar URL is refused by the receiver rules webhooks follow, or undefined. A URL on this
 * machine passes here: only a local development server accepts it (src/providers/connected-calendars.ts).
 */
export function calendarUrlProblem(url: URL): string | undefined {
  if (isLoopbackReceiver(url)) return undefined;
  if (url.username || url.password)
    return "Leave user name and password out of the URL; send them as username and password.";
  return publicReceiverProblem(url);
}

const calendarId = z.string().openapi({ example: "cal_01jd3k5v7q8r9s0t1u2v3w4x5y" });

export const ConnectCalendarSchema = z
  .strictObject({
    url: z
      .url()
      .max(2000)
      .superRefine((value, ctx) => {
        // Zod runs this check after a failed .url() too; that failure is already reported.
        const problem = URL.canParse(value) ? calendarUrlProblem(new URL(value)) : undefined;
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      })
      .openapi({
        description:
          "The CalDAV calendar collection's own URL (not the server's or the account's): public HTTPS, a host name (no IP address, no local or private-network name), port 443, no user name or password in it.",
        example: "https://caldav.example.com/dav/calendars/user/stylist@example.com/work/",
      }),
    username: z.string().min(1).max(256).optional().openapi({ description: "Basic authentication's user name." }),
    password: z.string().min(1).max(1024).optional().openapi({
      description:
        "Basic authentication's password (an app password where the provider offers them). Encrypted at rest; never shown again.",
    }),
    writeBookings: z.boolean().default(false).openapi({
      description:
        "Also write the person's bookings into this calendar (one event each, moved and deleted with the booking).",
    }),
  })
  .openapi("ConnectCalendar");

export const ConnectedCalendarSchema = z
  .object({
    id: calendarId,
    providerId: z.string().openapi({ example: "prv_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    type: z.enum(["caldav"]).openapi({ description: "The protocol: `caldav` (others may follow)." }),
    url: z.string(),
    writeBookings: z.boolean(),
    hasCredentials: z
      .boolean()
      .openapi({ description: "Whether a user name or password is stored (they are never shown)." }),
    syncStatus: z.enum(["pending", "ok", "failing"]).openapi({
      description:
        "`pending`: not read yet (its busy times do not count yet); `ok`: the last read succeeded; `failing`: the last read failed (see `lastError`) and the busy times of the last good read still count.",
    }),
    lastSyncedAt: utcTimestamp.nullable().openapi({ description: "When the calendar was last read successfully." }),
    lastError: z.string().nullable().openapi({ description: "Why the last read failed; null when it succeeded." }),
    failingSince: utcTimestamp.nullable().openapi({ description: "When the current outage began; null when none." }),
    busyUntil: utcTimestamp
      .nullable()
      .openapi({ description: "The busy times are known up to here (the end of the window last read)." }),
    eventsSkipped: z
      .number()
      .int()
      .min(0)
      .openapi({ description: "Events that could not be read (malformed iCalendar) and block nothing." }),
    createdAt: utcTimestamp,
  })
  .openapi("StaffCalendar");

export const ConnectedCalendarListSchema = z
  .object({ data: z.array(ConnectedCalendarSchema).max(5) })
  .openapi("StaffCalendarList");

/** `data` of the `calendar.sync_failed` webhook event. */
export const CalendarSyncFailedSchema = z
  .object({
    calendarId,
    providerId: z.string(),
    url: z.string(),
    error: z.string().openapi({ description: "Why the read failed (the calendar's `lastError`)." }),
    failingSince: utcTimestamp,
    lastSyncedAt: utcTimestamp.nullable(),
  })
  .openapi("CalendarSyncFailed");
