import { providerCalendarOf } from "../calendar";
import type { ProviderRow } from "../db/schema";
import { pushSettings } from "../refusals/problems";
import { providerSnapshotOf } from "./snapshot";

/** Pushes a stored provider's settings to their calendar, or answers a 503 to retry. */
export const configureProviderCalendar = (env: Env, row: ProviderRow) =>
  pushSettings("provider", row.id, () =>
    providerCalendarOf(env, row.businessId, row.id).configure(providerSnapshotOf(row)),
  );
