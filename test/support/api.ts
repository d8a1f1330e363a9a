/** Shared test helpers: accounts and rows straight into D1, and requests through the Worker's fetch. */
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import { newBusiness } from "../../src/business/new-business";
import { assignmentIds, assignmentWrites } from "../../src/calendar/d1/booking-assignments";
import { createDb } from "../../src/db/client";
import { bind, readBatch } from "../../src/db/prepared";
import { apiKeys, type BookingRow, bookings, businesses } from "../../src/db/schema";
import { newId } from "../../src/lib/ids";

/** Shard 0, where `createAccount` puts a business unless told another shard. */
export const db = () => createDb(env.DB_0);

/** The Drizzle handle of shard `n` (`DB_<n>`), and of the directory (`DB`). */
export const shardDb = (shard: number) => createDb(shard === 1 ? env.DB_1 : env.DB_0);
export const directoryDb = () => createDb(env.DB);

/** The shard the directory names for a business. */
export async function shardOf(businessId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT shard FROM businesses WHERE id = ?")
    .bind(businessId)
    .first<{ shard: number }>();
  if (!row) throw new Error(`no business ${businessId} in the directory`);
  return row.shard;
}

export const origin = "http://api.test";

export type TestAccount = { businessId: string; apiKey: string };

/**
 * Creates a business with one API key, as the CLI does: its rows on its shard (0 unless told),
 * then in the directory, which names the shard.
 */
export async function createAccount(name = "Test Business", shard = 0): Promise<TestAccount> {
  const account = await newBusiness(name, "test");
  const business = { ...account.business, shard };
  for (const target of [shardDb(shard), directoryDb()]) {
    await target.batch([target.insert(businesses).values(business), target.insert(apiKeys).values(account.apiKey)]);
  }
  return { businessId: account.business.id, apiKey: account.plaintextKey };
}

/**
 * Stores another key of a business, as `npm run business:key -- issue` does: on the business's
 * shard (0 unless told; revoking it there is what counts) and in the directory.
 */
export async function storeKey(record: typeof apiKeys.$inferInsert, shard = 0): Promise<void> {
  for (const target of [shardDb(shard), directoryDb()]) await target.insert(apiKeys).values(record);
}

type RequestOptions = { key?: string | null; body?: unknown; headers?: Record<string, string>; rawBody?: BodyInit };

/** Sends a request to the Worker under test; `path` is relative to /api/v1 unless it is a full URL. */
export async function api(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
  const headers = new Headers(options.headers);
  if (options.key) headers.set("Authorization", `Bearer ${options.key}`);
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  }
  const url = path.startsWith("http") ? path : `${origin}/api/v1${path}`;
  return exports.default.fetch(new Request(url, { method, headers, body }));
}

/** An instant as the API answers it: UTC with milliseconds (`2026-12-01T09:00:00.000Z`). */
export const utc = (instant: string | number) => new Date(instant).toISOString();

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

/** Creates a customer through the API and returns its JSON. */
export async function createCustomer(key: string, overrides: Record<string, unknown> = {}) {
  const body = { name: "Ada Lovelace", email: `${crypto.randomUUID()}@example.com`, ...overrides };
  const res = await api("POST", "/customers", { key, body });
  if (res.status !== 201) throw new Error(`customer create failed: ${res.status} ${await res.text()}`);
  return json(res);
}

type BookingFields = Pick<BookingRow, "serviceId" | "customerId" | "startTime"> & Partial<BookingRow>;

/**
 * Stores a booking row straight into D1 with its link rows, as the calendar's write does, 30
 * minutes long unless told; `providerIds` defaults to the one `providerId`.
 */
export async function insertBooking(businessId: string, fields: BookingFields): Promise<BookingRow> {
  const now = new Date().toISOString();
  const row: BookingRow = {
    id: newId("booking"),
    businessId,
    customerName: "Ada Lovelace",
    customerEmail: "ada@example.com",
    customerPhone: null,
    providerId: null,
    endTime: new Date(Date.parse(fields.startTime) + 30 * 60_000).toISOString(),
    notes: null,
    status: "CONFIRMED",
    version: 1,
    createdAt: now,
    updatedAt: now,
    cancelledAt: null,
    cancellationReason: null,
    ...fields,
  };
  const providerIds = row.providerIds ?? (row.providerId ? [row.providerId] : []);
  const shard = await shardOf(businessId);
  await shardDb(shard)
    .insert(bookings)
    .values({ ...row, providerIds });
  await readBatch(
    shard === 1 ? env.DB_1 : env.DB_0,
    assignmentWrites(shardDb(shard)).map((query) => bind(query, assignmentIds([row.id]))),
  );
  return row;
}

/** `pagination.total` of a list request. */
export async function totalOf(key: string, path: string): Promise<number> {
  const res = await api("GET", path, { key });
  expect(res.status).toBe(200);
  return (await json(res)).pagination.total;
}

/** Asserts an RFC 9457 response with this status and code, and returns its body. */
export async function problem(res: Response, status: number, code: string) {
  const body = await json(res);
  expect({ status: res.status, code: body.code }, JSON.stringify(body)).toEqual({ status, code });
  expect(res.headers.get("Content-Type")).toMatch(/^application\/problem\+json/);
  expect(body.status).toBe(status);
  return body;
}

/**
 * Posts `body` to `path` as two bodies the API cannot read: cut short as `application/json`
 * (400 `malformed_json`) and whole as `text/plain` (415 `unsupported_media_type`).
 */
export async function expectUnreadableBodiesRefused(key: string, path: string, body: unknown) {
  const text = JSON.stringify(body);
  const cut = { key, rawBody: text.slice(0, -1), headers: { "Content-Type": "application/json" } };
  await problem(await api("POST", path, cut), 400, "malformed_json");
  const plain = { key, rawBody: text, headers: { "Content-Type": "text/plain" } };
  await problem(await api("POST", path, plain), 415, "unsupported_media_type");
}

/** Asserts a 422 `validation_failed` whose `errors[]` names `path`, and returns that entry. */
export async function validationError(res: Response, path: string) {
  const body = await problem(res, 422, "validation_failed");
  const entry = body.errors?.find((e: { path: string }) => e.path === path);
  expect(entry, `no error for ${path} in ${JSON.stringify(body.errors)}`).toBeDefined();
  expect(entry.message).toEqual(expect.any(String));
  return entry as { path: string; message: string };
}

/** Every field of a Booking, sorted: what a booking body must carry, exactly. */
export const bookingFields = [
  "answers",
  "appointmentId",
  "cancellationReason",
  "cancelledAt",
  "conflicts",
  "createdAt",
  "customerEmail",
  "customerId",
  "customerName",
  "customerPhone",
  "endTime",
  "id",
  "manageUrl",
  "notes",
  "providerId",
  "providerIds",
  "resourceIds",
  "seriesId",
  "serviceId",
  "startTime",
  "status",
  "updatedAt",
];

/**
 * Rate-limit windows are aligned to the wall clock (`floor(now / period)`), so a burst that
 * straddles a boundary would start counting again half-way. Waits, when needed, until at least
 * `neededMs` are left in the current window.
 */
export async function awayFromWindowEdge(periodSeconds: number, neededMs = 10_000): Promise<void> {
  const periodMs = periodSeconds * 1000;
  const left = periodMs - (Date.now() % periodMs);
  // The limiter is the runtime's, on the real clock: a faked Date would not move its window.
  if (left < neededMs) await new Promise((resolve) => setTimeout(resolve, left + 250));
}
