import { configurePerson } from "../calendar";
import type { ProviderRow } from "../db/schema";
import { pushSettings } from "../lib/calendar-settings";
import { providerSnapshotOf } from "./snapshot";

/** Pushes a stored provider's settings to their calendar, or answers a 503 to retry. */
export const configureCalendar = (env: Env, row: ProviderRow) =>
  pushSettings("provider", row.id, () => configurePerson(env, providerSnapshotOf(row)));
