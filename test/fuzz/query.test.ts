/**
 * Fuzzed query strings for every list route and the availability calendar: random and known
 * keys, duplicated parameters, broken percent-encoding, very long and unicode values, SQL and
 * LIKE metacharacters. Never a 5xx; a rejection is a problem+json; a 200 is the list envelope
 * (or the calendar) and holds only the caller's data.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { bookingStatuses } from "../../src/db/schema";
import { api, createAccount, createCustomer, createService } from "../helpers";
import {
  check,
  createBookingVia,
  createRoomyService,
  expectSane,
  isoish,
  KeyRing,
  sqlish,
  unicodeString,
} from "./support";

const RUNS = 120;

const knownKeys = ["page", "limit", "active", "status", "serviceId", "customerId", "from", "to", "search"] as const;

let ring: KeyRing;
let mine: Set<string>;
let theirs: Set<string>;
let serviceId: string;
let idValues: string[];

beforeAll(async () => {
  ring = await KeyRing.create("Fuzz queries");
  const roomy = await createRoomyService(ring, { name: "Roomy" });
  const closed = await createRoomyService(ring, { name: "Closed", active: false });
  const customer = await createCustomer(await ring.key(), { name: "Ada %_\\ Lovelace" });
  const booking = await createBookingVia(ring, roomy.id);
  serviceId = roomy.id;
  mine = new Set([roomy.id, closed.id, customer.id, booking.id, booking.customerId]);

  const other = await createAccount("Other tenant");
  const theirService = await createService(other.apiKey);
  const theirCustomer = await createCustomer(other.apiKey, { name: "Ada Other" });
  theirs = new Set([theirService.id, theirCustomer.id]);
  idValues = [...mine, ...theirs];
});

/** Percent-encodes where possible (lone surrogates cannot be), else leaves the text raw. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
}

const value = fc.oneof(
  fc.constantFrom(
    "0",
    "-1",
    "1",
    "2",
    "20",
    "100",
    "101",
    "1e3",
    "1.5",
    "NaN",
    "",
    "0x1",
    "9007199254740993",
    "1000000",
    "1000001",
    "99999999999999999999",
    "true",
    "false",
    "TRUE",
    " 1",
    "1 ",
    ...bookingStatuses,
    "confirmed",
  ),
  isoish,
  sqlish,
  unicodeString,
  fc.nat().map((i) => idValues[i % idValues.length] as string),
  fc
    .tuple(fc.integer({ min: 200, max: 20_000 }), fc.constantFrom("a", "%", "é", "😀", "_"))
    .map(([n, c]) => c.repeat(n)),
);

/** One `key=value` piece: encoded, raw, double-encoded, or deliberately broken. */
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...knownKeys), value).map(([k, v]) => `${k}=${encode(v)}`) },
  fc.tuple(fc.constantFrom(...knownKeys), value).map(([k, v]) => `${k}=${v}`),
  fc.tuple(fc.constantFrom(...knownKeys), value).map(([k, v]) => `${k}=${encode(encode(v))}`),
  fc.tuple(fc.string({ unit: "binary", maxLength: 12 }), value).map(([k, v]) => `${encode(k)}=${encode(v)}`),
  fc.constantFrom(
    "page=1&page=2",
    "limit=10&limit=10",
    "search=a&search=b",
    "page",
    "page=",
    "=1",
    "&&",
    "%ZZ",
    "search=%ZZ",
    "search=%",
    "search=%E0%A4%A",
    "search=%C0%AF",
    "search=%00",
    "search=+",
    "from=%FF",
    "page[]=1",
    "page%00=1",
    "active=true&active=false",
    "status=CONFIRMED&status=PENDING",
    "limit=1e2",
    "__proto__=1",
    "constructor=x",
  ),
);

const randomQuery = fc.array(piece, { maxLength: 5 }).map((pieces) => pieces.join("&"));

/** Parameters a route takes, with values that are mostly acceptable, so that 200s are common too. */
const plausible: Record<string, fc.Arbitrary<string>> = {
  page: fc.integer({ min: 1, max: 3 }).map(String),
  limit: fc.integer({ min: 1, max: 100 }).map(String),
  active: fc.constantFrom("true", "false"),
  status: fc.constantFrom(...bookingStatuses),
  serviceId: fc.oneof(
    fc.nat().map((i) => idValues[i % idValues.length] as string),
    sqlish,
    unicodeString,
  ),
  customerId: fc.oneof(
    fc.nat().map((i) => idValues[i % idValues.length] as string),
    sqlish,
  ),
  from: isoish,
  to: isoish,
  search: fc.oneof(sqlish, unicodeString, fc.string({ maxLength: 210 })),
};

const routeParams: Record<string, string[]> = {
  "/services": ["page", "limit", "active"],
  "/customers": ["page", "limit", "search"],
  "/bookings": ["page", "limit", "status", "serviceId", "customerId", "from", "to"],
  availability: ["from", "to"],
};

function query(route: string): fc.Arbitrary<string> {
  const keys = routeParams[route] as string[];
  const plausibleQuery = fc
    .uniqueArray(fc.constantFrom(...keys), { maxLength: keys.length })
    .chain((chosen) =>
      fc.tuple(...chosen.map((k) => (plausible[k] as fc.Arbitrary<string>).map((v) => `${k}=${encode(v)}`))),
    )
    .map((pieces) => pieces.join("&"));
  return fc.oneof(randomQuery, plausibleQuery);
}

type Envelope = {
  data: { id: string }[];
  pagination: { page: number; limit: number; total: number; totalPages: number; hasMore: boolean };
};

/** The list envelope, consistent with itself, holding only the caller's rows. */
function expectEnvelope(body: unknown, context: string) {
  const { data, pagination } = body as Envelope;
  expect(Array.isArray(data), context).toBe(true);
  const { page, limit, total, totalPages, hasMore } = pagination;
  for (const n of [page, limit, total, totalPages]) expect(Number.isInteger(n), context).toBe(true);
  expect(page, context).toBeGreaterThanOrEqual(1);
  expect(limit, context).toBeGreaterThanOrEqual(1);
  expect(limit, context).toBeLessThanOrEqual(100);
  expect(totalPages, context).toBe(Math.max(1, Math.ceil(total / limit)));
  expect(hasMore, context).toBe(page < totalPages);
  expect(data.length, context).toBeLessThanOrEqual(limit);
  for (const item of data) {
    expect(theirs.has(item.id), `another tenant's row: ${context}`).toBe(false);
  }
}

async function get(path: string, q: string) {
  const url = q === "" ? path : `${path}?${q}`;
  const context = `GET ${url.length > 400 ? `${url.slice(0, 400)}…(${url.length})` : url}`;
  const res = await api("GET", url, { key: await ring.key() });
  const link = res.headers.get("Link");
  return { ...(await expectSane(res, context)), context, link };
}

describe("fuzzed query strings", () => {
  for (const path of ["/services", "/customers", "/bookings"]) {
    it(`GET ${path} answers any query string with a list or a problem`, async () => {
      await check(
        query(path),
        async (q) => {
          const res = await get(path, q);
          expect([200, 422], res.context).toContain(res.status);
          if (res.status === 200) {
            expectEnvelope(res.body, res.context);
            expect(res.link, res.context).toMatch(/rel="first"/);
          }
        },
        RUNS,
      );
    });
  }

  it("GET /services/{id}/availability answers any query string with slots or a problem", async () => {
    await check(
      query("availability"),
      async (q) => {
        const res = await get(`/services/${serviceId}/availability`, q);
        expect([200, 422], res.context).toContain(res.status);
        if (res.status === 200) {
          const body = res.body as { serviceId: string; slots: { remaining: number; capacity: number }[] };
          expect(body.serviceId, res.context).toBe(serviceId);
          expect(Array.isArray(body.slots), res.context).toBe(true);
          for (const slot of body.slots) expect(slot.remaining).toBeLessThanOrEqual(slot.capacity);
        }
      },
      RUNS,
    );
  });
});
