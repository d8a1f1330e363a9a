/** Tenants on both shards, and what each shard and the directory hold of a business (not a test file). */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import type { RelocationRecord } from "../../src/relocations/relocation";
import { createWebhook, newProvider } from "../support/fixtures";
import { createAccount, createCustomer, createService } from "./api";
import { at, book, bookingBody } from "./bookings";
import type { BusinessRelocation } from "./worker";

/** A business with a service, a person, a customer and a booking (written behind by its calendar). */
export async function businessOn(shard: number, name: string) {
  const account = await createAccount(name, shard);
  const provider = await newProvider(account.apiKey, `${name} person`);
  const service = await createService(account.apiKey, { providerIds: [provider] });
  const customer = await createCustomer(account.apiKey);
  const booking = await book(
    account.apiKey,
    bookingBody(service.id, at(3, "10:00"), { customerEmail: customer.email, customerName: customer.name }),
  );
  // Registered after the booking: its event has no delivery to try (the receiver is unreachable).
  const endpoint = await createWebhook(account.apiKey);
  return {
    ...account,
    shard,
    providerId: provider,
    serviceId: service.id as string,
    customerId: customer.id as string,
    bookingId: booking.id as string,
    endpointId: endpoint.id as string,
  };
}

/** A shard's binding, or the directory's (`"directory"`). */
export const bindingOf = (where: number | "directory"): D1Database =>
  where === "directory" ? env.DB : where === 1 ? env.DB_1 : env.DB_0;

/** Every table of the schema that has a `business_id` column. */
export async function businessTables(): Promise<string[]> {
  const { results } = await env.DB_0.prepare(
    // D1 does not allow pragma functions; a table's CREATE text names its columns.
    "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%`business_id`%'",
  ).all<{ name: string }>();
  return results.map((row) => row.name).sort();
}

/** The number of rows of `businessId` in each tenant table of a database, tables with none left out. */
export async function rowsOf(where: number | "directory", businessId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await businessTables()) {
    const row = await bindingOf(where)
      .prepare(`SELECT count(*) AS n FROM "${table}" WHERE business_id = ?`)
      .bind(businessId)
      .first<{ n: number }>();
    if (row && row.n > 0) counts[table] = row.n;
  }
  const own = await bindingOf(where).prepare("SELECT count(*) AS n FROM businesses WHERE id = ?").bind(businessId);
  const business = await own.first<{ n: number }>();
  if (business && business.n > 0) counts.businesses = business.n;
  return counts;
}

/** The object that moves `businessId` between shards. */
export const relocationStub = (businessId: string) =>
  env.BUSINESS_RELOCATION.get(env.BUSINESS_RELOCATION.idFromName(businessId));

/** An operator route, with the test deployment's admin token. */
export const admin = (method: string, path: string, body?: unknown, token = "test-admin-token") =>
  exports.default.fetch(
    new Request(`http://api.test/internal${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );

/** Starts moving a business to `shard` (no grace: the tests drive the steps). */
export async function startRelocation(businessId: string, shard: number, graceSeconds = 0) {
  const res = await admin("POST", `/businesses/${businessId}/relocation`, { shard, graceSeconds });
  if (res.status !== 202) throw new Error(`The move did not start: ${res.status} ${await res.text()}`);
  return res.json<{ from: number; to: number; step: string }>();
}

/**
 * Runs the move's alarm until its step is `until`. One run goes through many steps, so a move
 * stopped on the way (`until` other than "done") is stopped by a fault put at that step: the run
 * fails there, and the next run goes on.
 */
export async function driveRelocation(businessId: string, until = "done", runs = 500): Promise<RelocationRecord> {
  const stub = relocationStub(businessId);
  if (until !== "done") {
    await runInDurableObject(stub as unknown as DurableObjectStub<BusinessRelocation>, (move: BusinessRelocation) => {
      move.faults.failAt = until;
    });
  }
  for (let i = 0; i < runs; i++) {
    const move = (await stub.status()) as RelocationRecord;
    if (move.step === until) return move;
    await runDurableObjectAlarm(stub);
  }
  throw new Error(`The move of ${businessId} did not reach ${until} in ${runs} runs.`);
}
