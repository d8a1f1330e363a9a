/**
 * A calendar's user name and password at rest: sealed together (AES-GCM, src/lib/sealed.ts)
 * under a key derived from the Worker secret `CALENDAR_SECRET`, bound to the calendar's id. They
 * are opened only inside the person's calendar object, for the request that needs them, and are
 * never answered or logged.
 */
import { seal } from "../../lib/sealed";

/** The HKDF purpose of the calendars' key (another purpose under the same secret gives another key). */
export const CALENDAR_SECRET_PURPOSE = "staff-calendar-credentials";

/** What is sealed. */
export type SealedCredentials = { username: string | null; password: string | null };

/** Seals a calendar's credentials for the calendar `calendarId`. */
export const sealCredentials = (secret: string, calendarId: string, credentials: SealedCredentials) =>
  seal(secret, CALENDAR_SECRET_PURPOSE, calendarId, JSON.stringify(credentials));
