import { resourceCalendarOf } from "../calendar";
import type { ResourceRow } from "../db/schema";
import { pushSettings } from "../refusals/problems";
import { resourceSnapshotOf } from "./snapshot";

/** Pushes a stored resource's settings to its calendar, or answers a 503 to retry. */
export const configureResourceCalendar = (env: Env, row: ResourceRow) =>
  pushSettings("resource", row.id, () =>
    resourceCalendarOf(env, row.businessId, row.id).configure(resourceSnapshotOf(row)),
  );
