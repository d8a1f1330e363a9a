/** Providers' rows: one by id, a new one, a page of them, and the public shape. */
import { fieldsOf, recordQuery } from "../audit/record";
import { providerCalendarOf } from "../calendar";
import type { Database } from "../db/client";
import { type ProviderRow, providers } from "../db/schema";
import { newId } from "../lib/ids";
import { firstVersion, loadOwned } from "../lib/rows";
import { activeNewestFirst } from "../lists/newest-first";
import type { PageRequest } from "../lists/pagination";
import { pushSettings } from "../refusals";
import { shownLimits } from "../schemas/limits";
import type { Actor } from "../types/actor";
import { providerSnapshotOf } from "./snapshot";

/** Pushes a stored provider's settings to their calendar, or answers a 503 to retry. */
export const configureProviderCalendar = (env: Env, row: ProviderRow) =>
  pushSettings("provider", row.id, () =>
    providerCalendarOf(env, row.businessId, row.id).configure(providerSnapshotOf(row)),
  );

/** A provider's own settings, as a client writes them. */
export type ProviderFields = Omit<ProviderRow, "id" | "businessId" | "createdAt" | "updatedAt" | "version">;

/** The business's provider with this id, or a 404 that does not tell other tenants' ids apart. */
export const loadProvider = (db: Database, businessId: string, id: string): Promise<ProviderRow> =>
  loadOwned(db, providers, "provider", businessId, id);

/** The public shape of a stored provider. */
export function toProvider(row: ProviderRow) {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    timezone: row.timezone,
    weeklySchedule: row.weeklySchedule,
    dateOverrides: row.dateOverrides,
    active: row.active,
    limits: shownLimits(["perDay"], row.limits),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * Adds a provider and sets up their calendar before answering (a 503 to retry if it cannot be
 * reached; the provider is stored). Answers the provider as the API shows it, and its version.
 */
export async function addProvider(
  env: Env,
  db: Database,
  businessId: string,
  fields: Omit<ProviderFields, "email"> & { email?: string | null },
  actor: Actor,
) {
  const id = newId("provider");
  const [[row]] = await db.batch([
    db
      .insert(providers)
      .values({ ...fields, email: fields.email ?? null, businessId, ...firstVersion(id) })
      .returning(),
    recordQuery(db, {
      businessId,
      actor,
      action: "provider.created",
      resource: { type: "provider", id },
      fields: fieldsOf(fields),
    }),
  ]);
  const stored = row as NonNullable<typeof row>;
  await configureProviderCalendar(env, stored);
  return { provider: toProvider(stored), version: stored.version };
}

/** One page of the business's active (or inactive) providers, newest first, and how many there are. */
export async function providerPage(db: Database, businessId: string, query: PageRequest & { active: boolean }) {
  const { rows, total } = await activeNewestFirst(db, providers, businessId, query);
  return { items: rows.map(toProvider), total };
}
