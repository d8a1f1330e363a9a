/**
 * Shared pieces of the e2e suite: typed clients whose every response is contract-checked, a
 * checked raw `fetch` for requests openapi-fetch cannot express, and small helpers.
 */
import { readFileSync } from "node:fs";
import createClient, { type Client } from "openapi-fetch";
import { expect, inject } from "vitest";
import type { components, paths } from "./.generated/api";
import { checkResponse, contractMiddleware, createContractChecker, type OpenApiDocument } from "./contract";

export type Schemas = components["schemas"];
export type Booking = Schemas["Booking"];
export type Service = Schemas["Service"];
export type Customer = Schemas["Customer"];
export type Problem = Schemas["Problem"];
export type CreateService = Schemas["CreateService"];
export type CreateBooking = Schemas["CreateBooking"];

export const baseUrl = inject("baseUrl");
export const origin = inject("origin");
export const apiKey = inject("apiKey");
/** A second key of the demo business (issued by global-setup.ts) with a write budget of its own. */
export const secondApiKey = inject("secondApiKey");
export const document = JSON.parse(readFileSync(inject("documentPath"), "utf8")) as OpenApiDocument;
export const contract = createContractChecker(document);

/** Every response the suite has checked against the document (this file's worker). */
export const checked: string[] = [];

function checkedClient(headers: Record<string, string>): Client<paths> {
  const client = createClient<paths>({ baseUrl, headers });
  client.use(contractMiddleware(contract, (label) => checked.push(label)));
  return client;
}

/** The demo business's client. */
export const api = checkedClient({ Authorization: `Bearer ${apiKey}` });
/**
 * The same business through its second key, for the write-heavy files (visits, series, the
 * waitlist) and the error cases with bodies: each key has its own budget of writes per minute
 * (src/middleware/rate-limit.ts), and one key's is less than the suite writes in a minute. Same data as `api`: it is the same business.
 */
export const secondApi = checkedClient({ Authorization: `Bearer ${secondApiKey}` });
/** No Authorization header at all. */
export const anonymous = checkedClient({});
/** A well-formed key that no business owns. */
export const unknownKey = checkedClient({ Authorization: "Bearer bk_test_0000000000000000000000000x" });

export type RawInit = {
  /** Concrete values for the template's `{name}` segments. */
  params?: Record<string, string>;
  query?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Send a key (default true). */
  auth?: boolean;
  /** The key to send (default the demo key `apiKey`). */
  key?: string;
};

/**
 * A request by hand (malformed JSON, wrong media type, unknown query fields …), contract-checked
 * like every other response. `template` is the document's path (`/bookings/{id}`).
 */
export async function raw(method: string, template: string, init: RawInit = {}): Promise<Response> {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = init.params?.[name];
    if (value === undefined) throw new Error(`raw(): no value for {${name}} in ${template}`);
    return encodeURIComponent(value);
  });
  const headers = new Headers(init.headers);
  if (init.auth !== false && !headers.has("Authorization")) {
    headers.set("Authorization", `Bearer ${init.key ?? apiKey}`);
  }
  const response = await fetch(`${baseUrl}${path}${init.query ? `?${init.query}` : ""}`, {
    method,
    headers,
    body: init.body,
    signal: AbortSignal.timeout(30_000),
  });
  await checkResponse(contract, method, template, response);
  checked.push(`${method} ${template} ${response.status}`);
  return response;
}

/** Asserts an RFC 9457 problem: status, code, `type` URI, `instance` and the request id header. */
export function expectProblem(
  response: Response,
  body: unknown,
  status: number,
  code: Problem["code"],
  instance?: string,
): Problem {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const problem = body as Problem;
  expect(problem.status).toBe(status);
  expect(problem.code).toBe(code);
  expect(problem.type).toBe(`${origin}/api/v1/problems/${code}`);
  if (instance !== undefined) expect(problem.instance).toBe(instance);
  expect(problem.requestId).toBeTruthy();
  expect(response.headers.get("x-request-id")).toBe(problem.requestId);
  return problem;
}

/** `Link` header (RFC 8288) as rel → target. */
export function parseLinks(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of (header ?? "").split(/,\s*(?=<)/)) {
    const match = /^<([^>]*)>\s*;\s*rel="?([^";]+)"?/.exec(part.trim());
    if (match?.[1] !== undefined && match[2] !== undefined) links[match[2]] = match[1];
  }
  return links;
}

/** page/limit query values of a link target. */
export function pageOf(target: string | undefined): { page: number; limit: number } {
  const url = new URL(target ?? "", origin);
  return { page: Number(url.searchParams.get("page")), limit: Number(url.searchParams.get("limit")) };
}

/** Unique per run and call: keeps e-mails, names and idempotency keys from colliding. */
let counter = 0;
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${process.pid.toString(36)}-${counter}`;
}

const DAY_MS = 86_400_000;

/** An instant `days` ahead of today (UTC) at hh:mm UTC, as the API formats it. */
export function utcAt(days: number, hour: number, minute = 0): string {
  const now = new Date();
  return new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour, minute) + days * DAY_MS,
  ).toISOString();
}

export function plusMinutes(iso: string, minutes: number): string {
  return new Date(Date.parse(iso) + minutes * 60_000).toISOString();
}

const allDay = [{ start: "00:00", end: "24:00" }];

/**
 * A service of the demo business open every day around the clock in UTC, bookable right away:
 * tests that book slots use their own service, so they never collide with each other or the seed.
 * `client` is the key it is created with (default `api`).
 */
export async function createOpenService(
  overrides: Partial<CreateService> = {},
  client: Client<paths> = api,
): Promise<Service> {
  const { data, error, response } = await client.POST("/services", {
    body: {
      name: unique("E2E open service"),
      durationMinutes: 30,
      slotIntervalMinutes: 30,
      capacity: 1,
      minNoticeMinutes: 0,
      maxAdvanceDays: 365,
      timezone: "UTC",
      weeklySchedule: { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay },
      ...overrides,
    },
  });
  expect(error, JSON.stringify(error)).toBeUndefined();
  expect(response.status).toBe(201);
  return data as Service;
}

/** A booking body for `service` at `startTime`, lasting the service's duration. */
export function bookingBody(
  service: Service,
  startTime: string,
  overrides: Partial<CreateBooking> = {},
): CreateBooking {
  return {
    serviceId: service.id,
    customerName: "Edsger Dijkstra",
    customerEmail: `${unique("edsger")}@example.com`,
    startTime,
    endTime: plusMinutes(startTime, service.durationMinutes),
    ...overrides,
  };
}

/** Books `body` with `client` (default `api`). */
export async function createBooking(body: CreateBooking, client: Client<paths> = api): Promise<Booking> {
  const { data, error, response } = await client.POST("/bookings", { body });
  expect(error, JSON.stringify(error)).toBeUndefined();
  expect(response.status).toBe(201);
  return data as Booking;
}
