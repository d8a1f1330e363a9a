/**
 * Fuzzed query strings for every list route and the availability calendar: random and known
 * keys, duplicated parameters, broken percent-encoding, very long and unicode values, SQL and
 * LIKE metacharacters. Never a 5xx; a rejection is a problem+json; a 200 is the list envelope
 * (or the calendar) and holds only the caller's data.
 *
 * Then a model-based check of GET /customers?search=: for customers with hostile names and
 * e-mails (%, _, \, quotes, unicode case pairs) and random terms, the answer is exactly the
 * customers whose lower-cased name or e-mail contains the lower-cased (trimmed) term, as an
 * in-test filter computes it. Creating them is checked against the model too (409 for a
 * repeated e-mail in any case, 422 for a blank name).
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { bookingStatuses } from "../../src/types/booking";
import { api, createCustomer } from "../support/api";
import {
  check,
  createBookingVia,
  createRoomyService,
  encode,
  expectSane,
  isoish,
  KeyRing,
  printable,
  sqlish,
  unicodeString,
} from "../support/fuzz";

const RUNS = 80;

/** The query parameters of `GET /bookings`; with `active` and `search`, every one a list knows. */
const bookingParams = [
  "page",
  "limit",
  "status",
  "serviceId",
  "customerId",
  "providerId",
  "resourceId",
  "from",
  "to",
  "after",
  "before",
] as const;
const knownKeys = [...bookingParams, "active", "search"] as const;

let ring: KeyRing;
let mine: Set<string>;
let theirs: Set<string>;
let serviceId: string;
let idValues: string[];
/** Cursors the lists issued: the caller's, another tenant's, and each with one character changed. */
let cursors: string[];
/** Per list, the cursors it issued itself (to the caller and to the other tenant). */
const issuedFor: Record<string, string[]> = {};

beforeAll(async () => {
  ring = await KeyRing.create("Fuzz queries");
  const roomy = await createRoomyService(ring, { name: "Roomy" });
  const closed = await createRoomyService(ring, { name: "Closed", active: false });
  const customer = await createCustomer(await ring.key(), { name: "Ada %_\\ Lovelace" });
  const booking = await createBookingVia(ring, roomy.id);
  // Three bookings, so that a page of one carries cursors both ways.
  const more = [await createBookingVia(ring, roomy.id), await createBookingVia(ring, roomy.id)];
  serviceId = roomy.id;
  mine = new Set([
    roomy.id,
    closed.id,
    customer.id,
    booking.id,
    booking.customerId,
    ...more.flatMap((b) => [b.id, b.customerId]),
  ]);

  const other = await KeyRing.create("Other tenant");
  const theirService = await createRoomyService(other, { name: "Tenant-B-service" });
  const theirBooking = await createBookingVia(other, theirService.id);
  await createBookingVia(other, theirService.id);
  const theirCustomer = await createCustomer(await other.key(), { name: "Ada Other" });
  theirs = new Set([theirService.id, theirCustomer.id, theirBooking.id, theirBooking.customerId, "Tenant-B-service"]);
  idValues = [...mine, ...theirs];

  const issued = await Promise.all(
    [
      [ring, "/bookings"],
      [ring, "/customers"],
      [other, "/bookings"],
      [other, "/customers"],
    ].map(async ([owner, path]) => {
      const res = await api("GET", `${path}?limit=1`, { key: await (owner as KeyRing).key() });
      const { pagination } = (await res.json()) as { pagination: { nextCursor: string | null } };
      if (pagination.nextCursor)
        issuedFor[path as string] = [...(issuedFor[path as string] ?? []), pagination.nextCursor];
      return pagination.nextCursor;
    }),
  );
  const real = issued.filter((c): c is string => typeof c === "string");
  const flipped = real.map((c) => `${c.slice(0, -2)}${c.at(-2) === "A" ? "B" : "A"}${c.at(-1)}`);
  const forged = [["x"], [], ["2099-01-01T00:00:00.000Z"], [1, 2], ["a", "b", "c", "d"], { id: "x" }, "x".repeat(150)];
  cursors = [...real, ...flipped, ...forged.map((v) => base64url(JSON.stringify(v)))];
});

/** Base64url without padding, the way the lists write cursors. */
function base64url(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
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
  fc.nat().map((i) => cursors[i % cursors.length] as string),
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
    "after=",
    "after=a&before=a",
    "after=%3D%3D",
    "before=___",
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
  providerId: fc.nat().map((i) => idValues[i % idValues.length] as string),
  resourceId: fc.nat().map((i) => idValues[i % idValues.length] as string),
  after: fc.nat().map((i) => cursors[i % cursors.length] as string),
  before: fc.nat().map((i) => cursors[i % cursors.length] as string),
};

const routeParams: Record<string, string[]> = {
  "/services": ["page", "limit", "active"],
  "/customers": ["page", "limit", "search", "after", "before"],
  "/bookings": [...bookingParams],
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
  if (!keys.includes("after")) return fc.oneof(randomQuery, plausibleQuery);
  // A cursor this list issued, in either direction, with other parameters as plausible ones.
  const cursorQuery = fc
    .tuple(
      fc.constantFrom("after", "before"),
      fc.nat(),
      fc.uniqueArray(fc.constantFrom(...keys.filter((k) => !["after", "before", "page"].includes(k))), {
        maxLength: 2,
      }),
    )
    .chain(([direction, i, chosen]) => {
      const own = issuedFor[route] ?? [];
      const cursor = own[i % Math.max(1, own.length)] ?? "";
      return fc
        .tuple(...chosen.map((k) => (plausible[k] as fc.Arbitrary<string>).map((v) => `${k}=${encode(v)}`)))
        .map((pieces) => [`${direction}=${cursor}`, ...pieces].join("&"));
    });
  return fc.oneof(randomQuery, plausibleQuery, cursorQuery);
}

type Envelope = {
  data: { id: string }[];
  pagination: {
    page: number | null;
    limit: number;
    total: number;
    totalPages: number;
    hasMore: boolean;
    nextCursor?: string | null;
    prevCursor?: string | null;
  };
};

/** How many answered lists were cursor pages: the generators must reach them. */
let cursorPages = 0;

/** The query parameters of the `Link` header's target for `rel`, or undefined without one. */
function linkParams(link: string | null, rel: string): URLSearchParams | undefined {
  const target = (link ?? "").split(", ").find((part) => part.endsWith(`; rel="${rel}"`));
  return target ? new URL(target.slice(1, target.indexOf(">")), "http://api.test").searchParams : undefined;
}

/** The list envelope, consistent with itself, holding only the caller's rows. */
function expectEnvelope(body: unknown, context: string, link: string | null) {
  const { data, pagination } = body as Envelope;
  expect(Array.isArray(data), context).toBe(true);
  const { page, limit, total, totalPages, hasMore } = pagination;
  for (const n of [limit, total, totalPages]) expect(Number.isInteger(n), context).toBe(true);
  expect(limit, context).toBeGreaterThanOrEqual(1);
  expect(limit, context).toBeLessThanOrEqual(100);
  expect(totalPages, context).toBe(Math.max(1, Math.ceil(total / limit)));
  expect(data.length, context).toBeLessThanOrEqual(limit);
  if (page === null) {
    cursorPages++;
    // A cursor page: no page number; its cursors continue exactly where its rows end.
    expect(hasMore, context).toBe(pagination.nextCursor !== null);
    expect(link ?? "", context).not.toMatch(/rel="last"/);
  } else {
    expect(Number.isInteger(page) && page >= 1, context).toBe(true);
    expect(hasMore, context).toBe(page < totalPages);
  }
  for (const cursor of [pagination.nextCursor, pagination.prevCursor]) {
    if (cursor !== undefined && cursor !== null) expect(cursor, context).toMatch(/^[A-Za-z0-9_-]{1,256}$/);
  }
  // A cursor page links on by its cursor; a numbered page by the next number (its cursor is in the body).
  // The link keeps the query's own parameter order, so its parameters are read, not its text.
  const next = linkParams(link, "next");
  if (pagination.nextCursor && page === null) expect(next?.get("after"), context).toBe(pagination.nextCursor);
  if (hasMore && page !== null) expect(next?.get("page"), context).toBe(String(page + 1));
  for (const item of data) expect(mine.has(item.id) || !theirs.has(item.id), context).toBe(true);
}

async function get(path: string, q: string) {
  const url = q === "" ? path : `${path}?${q}`;
  const context = printable(`GET ${url.length > 400 ? `${url.slice(0, 400)}…(${url.length})` : url}`);
  const res = await api("GET", url, { key: await ring.key() });
  const link = res.headers.get("Link");
  const checked = await expectSane(res, context);
  // Bodies never quote the query, so no id or name of the other tenant may appear at all.
  for (const secret of theirs) expect(checked.text.includes(secret), `leak of ${secret}: ${context}`).toBe(false);
  return { ...checked, context, link };
}

describe("fuzzed query strings", () => {
  for (const path of ["/services", "/customers", "/bookings"]) {
    it(`GET ${path} answers any query string with a list or a problem`, async () => {
      const cursorPagesBefore = cursorPages;
      await check(
        query(path),
        async (q) => {
          const res = await get(path, q);
          expect([200, 422], res.context).toContain(res.status);
          if (res.status === 200) {
            expectEnvelope(res.body, res.context, res.link);
            expect(res.link, res.context).toMatch(/rel="first"/);
          }
        },
        RUNS,
      );
      // The generators reach cursor pages on the lists that have them.
      if (path !== "/services") expect(cursorPages).toBeGreaterThan(cursorPagesBefore);
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

// --- search, model-based ---------------------------------------------------------------

const SEARCH_RUNS = 60;
/** A new business once this many customers exist, so one page (limit=100) holds every match. */
const MAX_CUSTOMERS = 80;

type Customer = { id: string; name: string; email: string };

/** Letters with tricky case mappings, LIKE/escape metacharacters, quotes, emoji. */
const nameAlphabet = [
  ..."aAbBzZ09 -'",
  "%",
  "_",
  "\\",
  '"',
  "é",
  "É",
  "ß",
  "ẞ",
  "Σ",
  "σ",
  "ς",
  "İ",
  "ı",
  "i",
  "I",
  "\u212a", // KELVIN SIGN, lower-cases to "k"
  "k",
  "Ǆ",
  "ǅ",
  "ǆ",
  "Ω",
  "\u2126", // OHM SIGN
  "ω",
  "ﬀ",
  "😀",
  "\u0000",
  "\u00a0",
];

const nameArb = fc.string({ unit: fc.constantFrom(...nameAlphabet), minLength: 1, maxLength: 12 });

/** E-mails zod accepts, in mixed case, with `_`, `+`, `-` and `'` in the local part. */
const emailArb = fc
  .tuple(
    fc.string({ unit: fc.constantFrom(..."aAbBxX09_+-'"), minLength: 0, maxLength: 8 }),
    fc.constantFrom("example.com", "EXAMPLE.com", "Ex-Ample.ORG", "a-b.io"),
  )
  .map(([local, domain]) => `${local}x@${domain}`);

/** A search term: free text, metacharacters, or a slice of a stored name/e-mail in another case. */
type TermSpec =
  | { kind: "literal"; text: string }
  | { kind: "slice"; which: number; start: number; length: number; casing: "same" | "upper" | "lower" | "swap" };

const termArb: fc.Arbitrary<TermSpec> = fc.oneof(
  fc.string({ unit: fc.constantFrom(...nameAlphabet, "@", "."), minLength: 1, maxLength: 4 }).map((text) => ({
    kind: "literal" as const,
    text,
  })),
  fc
    .constantFrom("%", "_", "\\", "%%", "_%", "\\%", "' OR 1=1 --", "'", "@", ".", " a ", "  ", "x@", "\u0000")
    .map((text) => ({ kind: "literal" as const, text })),
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("slice" as const),
      which: fc.nat(),
      start: fc.nat(),
      length: fc.integer({ min: 1, max: 6 }),
      casing: fc.constantFrom("same" as const, "upper" as const, "lower" as const, "swap" as const),
    }),
  },
);

function swapCase(text: string): string {
  return [...text].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join("");
}

/** The term a spec stands for, given the customers stored so far. */
function termOf(spec: TermSpec, model: Customer[]): string {
  if (spec.kind === "literal") return spec.text;
  const sources = model.flatMap((c) => [c.name, c.email]);
  if (sources.length === 0) return "a";
  const source = [...(sources[spec.which % sources.length] as string)];
  const start = spec.start % source.length;
  const slice = source.slice(start, start + spec.length).join("");
  return { same: slice, upper: slice.toUpperCase(), lower: slice.toLowerCase(), swap: swapCase(slice) }[spec.casing];
}

/** The model of search: case-insensitive substring of name or e-mail, every character literal. */
function expectedMatches(model: Customer[], term: string): string[] {
  const needle = term.trim().toLowerCase();
  return model
    .filter((c) => c.name.toLowerCase().includes(needle) || c.email.toLowerCase().includes(needle))
    .map((c) => c.id)
    .sort();
}

describe("customer search, model-based", () => {
  it("GET /customers?search= returns exactly the customers the in-test filter finds", async () => {
    let ring = await KeyRing.create("Fuzz search");
    let model: Customer[] = [];

    await check(
      fc.tuple(
        fc.array(fc.record({ name: nameArb, email: emailArb }), { minLength: 1, maxLength: 3 }),
        fc.array(termArb, { minLength: 1, maxLength: 2 }),
      ),
      async ([newCustomers, terms]) => {
        if (model.length > MAX_CUSTOMERS) {
          ring = await KeyRing.create("Fuzz search");
          model = [];
        }
        for (const input of newCustomers) {
          const res = await api("POST", "/customers", { key: await ring.key(), body: input });
          const context = printable(`POST /customers ${JSON.stringify(input)}`);
          const checked = await expectSane(res, context);
          const taken = model.some((c) => c.email.toLowerCase() === input.email.toLowerCase());
          if (input.name.trim() === "") {
            expect(checked.status, context).toBe(422);
          } else if (taken) {
            expect(checked.status, context).toBe(409);
          } else {
            expect(checked.status, context).toBe(201);
            const created = checked.body as Customer;
            expect(printable(created.name), context).toBe(printable(input.name.trim()));
            expect(printable(created.email), context).toBe(printable(input.email));
            model.push({ id: created.id, name: created.name, email: created.email });
          }
        }

        for (const spec of terms) {
          const term = termOf(spec, model);
          const path = `/customers?limit=100&search=${encodeURIComponent(term)}`;
          const res = await api("GET", path, { key: await ring.key() });
          const context = printable(`GET ${path} (term ${JSON.stringify(term)}) over ${JSON.stringify(model)}`);
          const checked = await expectSane(res, context);
          if (term.trim() === "") {
            expect(checked.status, context).toBe(422);
            continue;
          }
          expect(checked.status, context).toBe(200);
          const body = checked.body as { data: Customer[]; pagination: { total: number } };
          const expected = expectedMatches(model, term);
          expect(body.data.map((c) => c.id).sort(), context).toEqual(expected);
          expect(body.pagination.total, context).toBe(expected.length);
        }
      },
      SEARCH_RUNS,
    );
  });
});
