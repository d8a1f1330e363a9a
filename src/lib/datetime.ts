import { z } from "./zod";

/**
 * The one form of instants this API reads and writes, as a JSON Schema pattern: RFC 3339 in UTC
 * with seconds, optional fractional seconds and a trailing `Z` (no offset, no local time).
 */
export const utcDateTimePattern = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$";

/**
 * The last instant the API reads or writes, 9999-12-31T23:59:59.999Z: past it the year takes
 * five digits (`+010000-…`), which the pattern above refuses. Ranges the API computes are cut here
 * and slots that would end later are not listed (docs/api-behaviour.md, "Resources and lists").
 */
export const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** How accepted instants are written, for descriptions of fields and parameters. */
export const utcDateTimeRule =
  "UTC with a trailing `Z`, e.g. `2026-12-01T10:00:00Z` (fractional seconds allowed); an offset such as `+01:00`, a missing `Z` or an impossible date is a 422.";

/**
 * An instant a client sends: ISO 8601 UTC with a trailing `Z` (fractional seconds allowed);
 * offsets and local times are rejected, and so are impossible dates such as February 30.
 * Every time field and parameter of the API uses this one definition.
 */
export const utcDateTime = z.iso
  .datetime({ offset: false, local: false })
  .refine((value) => {
    const parsed = new Date(value);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 19) === value.slice(0, 19);
  }, "Not a real date and time.")
  .openapi({ format: "date-time", pattern: utcDateTimePattern, description: utcDateTimeRule });

/** An instant the API returns: always UTC with milliseconds and a trailing `Z`. */
export const utcTimestamp = z.string().openapi({ format: "date-time", pattern: utcDateTimePattern });
