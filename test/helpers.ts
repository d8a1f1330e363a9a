/** Shared test helpers: accounts straight into D1, and requests through the Worker's fetch. */
import { env, exports } from "cloudflare:workers";
import { newAccount } from "../src/accounts/accounts";
import { createDb } from "../src/db/client";
import { apiKeys, businesses } from "../src/db/schema";

export const db = () => createDb(env.DB);

export type TestAccount = { businessId: string; apiKey: string };

/** Creates a business with one API key, as the CLI does. */
export async function createAccount(name = "Test Business"): Promise<TestAccount> {
  const account = await newAccount(name, "test");
  await db().batch([db().insert(businesses).values(account.business), db().insert(apiKeys).values(account.apiKey)]);
  return { businessId: account.business.id, apiKey: account.plaintextKey };
}

type RequestOptions = { key?: string | null; body?: unknown; headers?: Record<string, string>; rawBody?: string };

/** Sends a request to the Worker under test; JSON bodies get the JSON content type. */
export async function api(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
  const headers = new Headers(options.headers);
  if (options.key) headers.set("Authorization", `Bearer ${options.key}`);
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  }
  return exports.default.fetch(new Request(`http://api.test/api/v1${path}`, { method, headers, body }));
}

/** Reads a JSON body, typed loosely for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary JSON
export async function json(res: Response): Promise<any> {
  return res.json();
}

/** A service body that is valid everywhere: Monday–Sunday 09:00–17:00 UTC, 30-minute slots. */
export function serviceBody(overrides: Record<string, unknown> = {}) {
  const day = [{ start: "09:00", end: "17:00" }];
  return {
    name: "Consultation",
    durationMinutes: 30,
    timezone: "UTC",
    weeklySchedule: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day },
    ...overrides,
  };
}

/** Creates a service through the API and returns its JSON. */
export async function createService(key: string, overrides: Record<string, unknown> = {}) {
  const res = await api("POST", "/services", { key, body: serviceBody(overrides) });
  if (res.status !== 201) throw new Error(`service create failed: ${res.status} ${await res.text()}`);
  return json(res);
}

/** Asserts an RFC 9457 body and returns it. */
export async function problem(res: Response, status: number, code: string) {
  const body = await json(res);
  if (res.status !== status || body.code !== code || !res.headers.get("Content-Type")?.startsWith("application/problem+json")) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(body)}`);
  }
  return body;
}
