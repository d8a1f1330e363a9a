/**
 * A service's form read into the body `POST /services` and `PATCH /services/{id}` take: numbers
 * as numbers (an empty one absent, so the API's default or the stored value stands, or null where
 * null means "no limit"), the hours as the person's page reads them, the ticked people and rooms
 * as id lists, reminders as minute offsets. What cannot be read is a problem at its field; the
 * API's schema checks the rest.
 */
import type { FormFields } from "../../../pages/form";
import { readWeek, type Slots } from "../hours";
import { orNull, textOf, ticked, wholeNumber } from "../save";
import type { ServiceWords } from "./words";

/** The number fields whose empty value leaves the API's default (new) or the stored value (edit). */
export const numberFields = [
  "durationMinutes",
  "capacity",
  "slotIntervalMinutes",
  "bufferBeforeMinutes",
  "bufferAfterMinutes",
  "minNoticeMinutes",
  "maxAdvanceDays",
  "cancellationNoticeMinutes",
  "rescheduleNoticeMinutes",
] as const;

/** The ids of the ticked checkboxes named `<list>.<id>`. */
const tickedIds = (f: FormFields, list: string) =>
  Object.keys(f)
    .filter((name) => name.startsWith(`${list}.`))
    .map((name) => name.slice(list.length + 1))
    // In the order the service keeps them, so an unchanged list is not a change.
    .sort();

/** The reminders field ("1440, 60") as the API's list, or undefined when it is not minutes. */
function readReminders(text: string) {
  const parts = text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  if (parts.some((p) => !/^\d{1,6}$/.test(p))) return undefined;
  return parts.map((p) => ({ offsetMinutes: Number(p) }));
}

/** The form as a service body, the problems found reading it, and where each day's intervals came from. */
export function readService(f: FormFields, w: ServiceWords, badInterval: string) {
  const problems: Record<string, string> = {};
  const body: Record<string, unknown> = {
    name: textOf(f, "name"),
    description: orNull(f, "description"),
    timezone: textOf(f, "timezone"),
    providerIds: tickedIds(f, "providerIds"),
    providerMode: textOf(f, "providerMode") || undefined,
    assignment: textOf(f, "assignment") || undefined,
    resourceIds: tickedIds(f, "resourceIds"),
    requiresConfirmation: ticked(f, "requiresConfirmation"),
    bookableOnline: ticked(f, "bookableOnline"),
    limits: {
      perDay: wholeNumber(f, "limits.perDay", problems, w.notANumber),
      perWeek: wholeNumber(f, "limits.perWeek", problems, w.notANumber),
    },
    maxActivePerCustomer: wholeNumber(f, "maxActivePerCustomer", problems, w.notANumber),
  };
  for (const name of numberFields) body[name] = wholeNumber(f, name, problems, w.notANumber) ?? undefined;
  const reminders = readReminders(textOf(f, "reminders"));
  if (reminders) body.reminders = reminders;
  else problems.reminders = w.badReminders;
  const week = readWeek(f, badInterval);
  Object.assign(problems, week.problems);
  body.weeklySchedule = week.value;
  return { body, problems, slots: week.slots };
}

/** Where an API problem's path belongs in the form: its field, the hours' slot, or the list it is in. */
export function serviceField(path: string, slots: Slots, place: (path: string, slots: Slots) => string | undefined) {
  if (path.startsWith("weeklySchedule.")) return place(path, slots);
  if (path.startsWith("reminders.")) return "reminders";
  if (path.startsWith("providerIds.") || path.startsWith("resourceIds.")) return path.split(".")[0];
  return path;
}
