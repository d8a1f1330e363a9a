/**
 * A person's own calendars, as the API's routes and the office's forms use them: connecting one
 * (URL rules, credentials sealed, the bound of 5 decided by the person's calendar object, then the
 * first read waited for), listing, reading and disconnecting them (connecting and disconnecting
 * recorded in the audit), and reading one now. The calendars live in the person's calendar object
 * only; D1 is asked just whether the person is the business's, and holds the audit's records.
 */

import { auditRow, changeAuditId, creationAuditId, fieldsOf, writeRecords } from "../audit/record";
import { type ConnectedCalendar, type ProviderSnapshot, providerCalendarOf, sealCredentials } from "../calendar";
import type { Database } from "../db/client";
import { ApiError } from "../lib/api-error";
import { newId } from "../lib/ids";
import type { Actor } from "../types/actor";
import { isLoopbackReceiver, localReceiversAllowed } from "../webhooks/receiver-url";
import { loadProvider } from "./records";
import { providerSnapshotOf } from "./snapshot";

/** How long connecting waits for the calendar's first read before answering it `pending`. */
export const FIRST_READ_WAIT_MS = 20_000;

/** What connects a calendar (the request body). */
export type CalendarInput = { url: string; username?: string; password?: string; writeBookings: boolean };

/** A calendar as the API answers it. */
export type ProviderCalendarView = ConnectedCalendar & { providerId: string };

const withOwner = (providerId: string, calendar: ConnectedCalendar): ProviderCalendarView => ({
  ...calendar,
  providerId,
});

/** A calendar on this machine, where the Worker does not allow local URLs (production): a 422 at `url`. */
function refuseLocal(env: Env, url: string): void {
  if (!isLoopbackReceiver(new URL(url)) || localReceiversAllowed(env)) return;
  const message = "Use a public https:// URL; calendars on this machine work on a local development server only.";
  throw new ApiError("validation_failed", "The request body is invalid.", { errors: [{ path: "url", message }] });
}

const notFound = (id: string) => new ApiError("not_found", `No calendar ${id} for this provider.`);

/** The person's calendar object, after D1 said the person is the business's (a 404 otherwise). */
async function calendarsOf(env: Env, db: Database, businessId: string, providerId: string) {
  const provider = await loadProvider(db, businessId, providerId);
  return { provider, calendars: providerCalendarOf(env, businessId, providerId) };
}

/**
 * Connects a calendar and reads it before answering (at most `FIRST_READ_WAIT_MS`): its busy
 * times count from then on. A read that failed answers the calendar `failing` with its error (it is
 * kept and read again with backoff); one still running answers it `pending`.
 */
export async function connectCalendar(
  env: Env,
  db: Database,
  businessId: string,
  providerId: string,
  input: CalendarInput,
  actor: Actor,
): Promise<ProviderCalendarView> {
  refuseLocal(env, input.url);
  const { provider, calendars } = await calendarsOf(env, db, businessId, providerId);
  const id = newId("calendar");
  let credentials: string | null = null;
  if (input.username !== undefined || input.password !== undefined) {
    if (!env.CALENDAR_SECRET) {
      throw new ApiError(
        "unavailable",
        "This deployment cannot store calendar credentials yet (CALENDAR_SECRET is not set).",
      );
    }
    const opened = { username: input.username ?? null, password: input.password ?? null };
    credentials = await sealCredentials(env.CALENDAR_SECRET, id, opened);
  }
  const snapshot: ProviderSnapshot = providerSnapshotOf(provider);
  const record = auditRow({
    id: creationAuditId(id),
    businessId,
    actor,
    action: "calendar.connected",
    resource: { type: "calendar", id },
    fields: fieldsOf(input),
  });
  const added = await calendars.connectCalendar(
    snapshot,
    { id, url: input.url, credentials, writeBookings: input.writeBookings },
    record,
  );
  if (!added) {
    throw new ApiError(
      "calendar_limit",
      "A provider can have at most 5 calendars. Disconnect one (DELETE /providers/{id}/calendars/{calendarId}) first.",
    );
  }
  // The object keeps the record with the calendar until D1 has it (its alarm writes it after a
  // reset); written here too, so the audit shows it as the answer leaves.
  await writeRecords(db, [record]);
  let timer: ReturnType<typeof setTimeout> | null = null;
  const waited = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), FIRST_READ_WAIT_MS);
  });
  try {
    const read = await Promise.race([calendars.syncCalendar(id), waited]);
    return withOwner(providerId, read ?? added);
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
}

/** The person's calendars, oldest first. */
export async function listCalendars(env: Env, db: Database, businessId: string, providerId: string) {
  const { calendars } = await calendarsOf(env, db, businessId, providerId);
  return (await calendars.listCalendars()).map((calendar) => withOwner(providerId, calendar));
}

/** One of the person's calendars, or a 404. */
export async function getCalendar(env: Env, db: Database, businessId: string, providerId: string, id: string) {
  const { calendars } = await calendarsOf(env, db, businessId, providerId);
  const found = await calendars.getCalendar(id);
  if (!found) throw notFound(id);
  return withOwner(providerId, found);
}

/** Disconnects one of the person's calendars (recorded in the audit once the object let it go), or a 404. */
export async function disconnectCalendar(
  env: Env,
  db: Database,
  businessId: string,
  providerId: string,
  id: string,
  actor: Actor,
) {
  const { calendars } = await calendarsOf(env, db, businessId, providerId);
  const at = Date.now();
  const record = auditRow(
    {
      id: changeAuditId(id, at),
      businessId,
      actor,
      action: "calendar.disconnected",
      resource: { type: "calendar", id },
    },
    at,
  );
  if (!(await calendars.disconnectCalendar(id, record))) throw notFound(id);
  await writeRecords(db, [record]);
}

/** Reads one of the person's calendars now and answers it as it is then, or a 404. */
export async function syncCalendar(env: Env, db: Database, businessId: string, providerId: string, id: string) {
  const { calendars } = await calendarsOf(env, db, businessId, providerId);
  const read = await calendars.syncCalendar(id);
  if (!read) throw notFound(id);
  return withOwner(providerId, read);
}
