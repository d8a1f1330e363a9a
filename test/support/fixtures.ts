/**
 * Shared fixtures of the Workers tests (not a test file; unlike dev-server.ts beside it, this
 * runs inside workerd): providers, resources, the `salon` — a business whose services are performed by
 * providers — webhook endpoints and holds.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { api, createAccount, createService, json, type TestAccount } from "./api";
import { calendarStub, plus } from "./bookings";

const DAY = [{ start: "09:00", end: "17:00" }];

/** 09:00–17:00 every day of the week. */
export const everyDay = { mon: DAY, tue: DAY, wed: DAY, thu: DAY, fri: DAY, sat: DAY, sun: DAY };

/** A provider body valid everywhere: Monday and Tuesday 09:00–17:00 in Berlin; `overrides` win. */
export const providerBody = (overrides: Record<string, unknown> = {}) => ({
  name: "Alex Morgan",
  timezone: "Europe/Berlin",
  weeklySchedule: { mon: DAY, tue: DAY },
  ...overrides,
});

/** Creates a provider through the API (`providerBody` with `overrides`) and returns its JSON. */
export async function createProvider(key: string, overrides: Record<string, unknown> = {}) {
  const res = await api("POST", "/providers", { key, body: providerBody(overrides) });
  if (res.status !== 201) throw new Error(`provider create failed: ${res.status} ${await res.text()}`);
  return json(res);
}

/** Creates a provider who works 09:00–17:00 UTC every day and returns its id. */
export async function newProvider(key: string, name: string, fields: Record<string, unknown> = {}): Promise<string> {
  const provider = await createProvider(key, { name, timezone: "UTC", weeklySchedule: everyDay, ...fields });
  return provider.id as string;
}

/** A resource body valid everywhere: one unit, no hours of its own (open whenever a service is). */
export const resourceBody = (overrides: Record<string, unknown> = {}) => ({
  name: "Treatment room",
  timezone: "UTC",
  ...overrides,
});

/** Creates a resource through the API (`resourceBody` with `overrides`) and returns its JSON. */
export async function createResource(key: string, overrides: Record<string, unknown> = {}) {
  const res = await api("POST", "/resources", { key, body: resourceBody(overrides) });
  if (res.status !== 201) throw new Error(`resource create failed: ${res.status} ${await res.text()}`);
  return json(res);
}

/**
 * A service's documented maximum of links: 50 providers (09:00–17:00 UTC every day) and 5
 * resources (one unit each) of the key's business, created through the API; answers their ids.
 */
export async function mostLinks(key: string): Promise<{ providerIds: string[]; resourceIds: string[] }> {
  const providerIds = await Promise.all(Array.from({ length: 50 }, (_, i) => newProvider(key, `Stylist ${i}`)));
  const resources = await Promise.all(Array.from({ length: 5 }, (_, i) => createResource(key, { name: `Room ${i}` })));
  return { providerIds, resourceIds: resources.map((r) => r.id as string) };
}

export type Salon = TestAccount & { providerIds: string[]; cut: string; colour: string };

/**
 * A business with `n` providers (`Stylist 0` …, 09:00–17:00 UTC every day) and two services,
 * cut and colour, that all of them perform (also open 09:00–17:00 UTC every day).
 */
export async function salon(n = 2, serviceFields: Record<string, unknown> = {}): Promise<Salon> {
  const account = await createAccount("Salon");
  const providerIds: string[] = [];
  for (let i = 0; i < n; i++) providerIds.push(await newProvider(account.apiKey, `Stylist ${i}`));
  const cut = await createService(account.apiKey, { name: "Cut", providerIds, ...serviceFields });
  const colour = await createService(account.apiKey, { name: "Colour", providerIds, ...serviceFields });
  return { ...account, providerIds, cut: cut.id as string, colour: colour.id as string };
}

/**
 * A receiver URL that passes the public-HTTPS rules but never answers: `.invalid` (RFC 6761)
 * names resolve nowhere, so every delivery attempt to it fails without leaving the machine.
 */
export const unreachableReceiver = (path = "bookings") => `https://hooks.example.invalid/${path}`;

/** Registers a webhook endpoint (every booking event, an unreachable receiver) and returns its JSON with the secret. */
export async function createWebhook(key: string, overrides: Record<string, unknown> = {}) {
  const body = {
    url: unreachableReceiver(),
    events: ["booking.created", "booking.cancelled", "booking.updated"],
    ...overrides,
  };
  const res = await api("POST", "/webhooks", { key, body });
  if (res.status !== 201) throw new Error(`webhook create failed: ${res.status} ${await res.text()}`);
  return json(res);
}

/** POST /holds for a 30-minute seat starting at `startTime`; `extra` adds or overrides fields. */
export function placeHold(key: string, serviceId: string, startTime: string, extra: Record<string, unknown> = {}) {
  return api("POST", "/holds", { key, body: { serviceId, startTime, endTime: plus(startTime, 30), ...extra } });
}

/** Places a hold that must succeed and returns its JSON. */
export async function hold(key: string, serviceId: string, startTime: string, extra: Record<string, unknown> = {}) {
  const res = await placeHold(key, serviceId, startTime, extra);
  if (res.status !== 201) throw new Error(`hold failed: ${res.status} ${await res.text()}`);
  return json(res);
}

/**
 * Lets a hold's time run out: its calendar's copy expires as if `expiresAt` had passed, then the
 * calendar's alarm runs, as it would at `expiresAt` with no request arriving.
 */
export async function expireHold(businessId: string, serviceId: string, holdId: string) {
  const stub = calendarStub(businessId, serviceId);
  await runInDurableObject(stub, (_instance, state) => {
    state.storage.sql.exec("UPDATE bookings SET expires_ms = 1 WHERE id = ?", holdId);
    state.storage.sql.exec(
      "UPDATE holds SET expires_ms = 1, record = json_set(record, '$.expiresAt', '1970-01-01T00:00:00.001Z') WHERE id = ?",
      holdId,
    );
  });
  await runDurableObjectAlarm(stub);
}
