/**
 * Shared pieces of the property-based fuzz tests: rotating API keys (so per-key rate limits
 * never hide behaviour), the response invariants every answer must meet, snapshots of what a
 * business has stored, fixtures, and the hostile-value arbitraries. Not a test file.
 */
import { env } from "cloudflare:workers";
import { eq, getTableColumns, getTableName } from "drizzle-orm";
import fc from "fast-check";
import { expect } from "vitest";
import { newApiKey } from "../../src/business/new-business";
import { bookings, customers, idempotencyKeys, providers, serviceProviders, services } from "../../src/db/schema";
import { problemTypes } from "../../src/lib/api-error";
import { api, createAccount, db, json, serviceBody, storeKey } from "./api";
import { allDay, calendarStub } from "./bookings";

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/**
 * Knobs for deeper or reproducible runs: `VITE_FUZZ_SCALE=5 npx vitest run test/fuzz` multiplies
 * every numRuns by 5, and `VITE_FUZZ_SEED=<seed>` replays the seed a failure printed. Vitest
 * hands VITE_* variables to the workers' `process.env` (read at run time: `import.meta.env` is
 * fixed when Vite transforms this file, and the transform is cached).
 */
function fuzzKnobs() {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  const seed = env.VITE_FUZZ_SEED;
  return { scale: Number(env.VITE_FUZZ_SCALE ?? "1") || 1, seed: seed === undefined ? undefined : Number(seed) };
}

/** Runs an async property with a bounded number of runs; fast-check prints seed and path on failure. */
export async function check<T>(
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  numRuns: number,
  extra: fc.Parameters<[T]> = {},
): Promise<void> {
  const { scale, seed } = fuzzKnobs();
  await fc.assert(
    fc.asyncProperty(arbitrary, async (value) => {
      await predicate(value);
    }),
    {
      numRuns: Math.max(1, Math.round(numRuns * scale)),
      ...(seed === undefined ? {} : { seed }),
      ...extra,
    },
  );
}

/**
 * The API keys of one business, swapped for a fresh key of the same business every
 * `rotateAfter` requests: the read (600/min) and write (300/min) budgets are per key.
 */
export class KeyRing {
  private used = 0;
  /** What the business had stored after the last checked rejection; dropped on any write. */
  known: Awaited<ReturnType<typeof storedState>> | undefined;
  /** Services whose calendar (Durable Object) state is part of the snapshot. */
  readonly watched: string[] = [];

  private constructor(
    readonly businessId: string,
    private current: string,
    private readonly rotateAfter: number,
  ) {}

  static async create(name = "Fuzz Business", rotateAfter = 150): Promise<KeyRing> {
    const account = await createAccount(name);
    return new KeyRing(account.businessId, account.apiKey, rotateAfter);
  }

  /** A key with budget left; counts one request against it. */
  async key(): Promise<string> {
    this.used += 1;
    if (this.used > this.rotateAfter) {
      const minted = await newApiKey(this.businessId, "test");
      await storeKey(minted.record);
      this.current = minted.plaintext;
      this.used = 1;
    }
    return this.current;
  }
}

/**
 * Failure messages travel from workerd to Vitest over a WebSocket as UTF-8: a lone surrogate in
 * one (easily made by slicing an emoji) kills the test pool. Everything outside printable ASCII
 * is written as a \\uXXXX escape.
 */
export function printable(text: string): string {
  return text.replace(/[^\x20-\x7e\n]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A value as printable JSON, for comparisons whose diff may show user text. */
export const shown = (value: unknown) => printable(JSON.stringify(value) ?? "undefined");

export type Checked = { status: number; text: string; body: unknown; replayed: string | null };

/**
 * The invariants of every answer: no 5xx; every 4xx is `application/problem+json` with
 * type, title, status (equal to the HTTP status), detail, code, instance and requestId.
 * A 429 would mean the key ring failed, so it is reported as such.
 */
export async function expectSane(res: Response, context: string): Promise<Checked> {
  const text = await res.text();
  const where = printable(`${context}\n→ ${res.status} ${res.headers.get("Content-Type")} ${text.slice(0, 500)}`);
  expect(res.status, where).toBeLessThan(500);
  expect(res.status, `rate limited: ${where}`).not.toBe(429);
  let body: unknown;
  if (res.status >= 400) {
    expect(res.headers.get("Content-Type"), where).toMatch(/^application\/problem\+json(;|$)/);
    body = JSON.parse(text);
    const problem = body as Record<string, unknown>;
    expect(problem.status, where).toBe(res.status);
    expect(Object.keys(problemTypes), where).toContain(problem.code);
    expect(problemTypes[problem.code as keyof typeof problemTypes].status, where).toBe(res.status);
    for (const field of ["type", "title", "detail", "instance", "requestId"]) {
      expect(typeof problem[field], `${field}: ${where}`).toBe("string");
    }
    expect(problem.requestId, where).not.toBe("");
    expect(res.headers.get("X-Request-Id"), where).toBe(problem.requestId);
    if (problem.errors !== undefined) {
      expect(Array.isArray(problem.errors), where).toBe(true);
      for (const e of problem.errors as { path: unknown; message: unknown }[]) {
        expect(typeof e.path, where).toBe("string");
        expect(typeof e.message, where).toBe("string");
      }
    }
  } else if (res.status !== 204 && res.status !== 304 && text !== "") {
    expect(res.headers.get("Content-Type"), where).toMatch(/^application\/json/);
    body = JSON.parse(text);
  }
  return { status: res.status, text, body, replayed: res.headers.get("Idempotent-Replayed") };
}

const businessTables = [services, customers, bookings, idempotencyKeys, providers, serviceProviders] as const;

/** One statement that dumps every stored row of a business, each column as its type and hex bytes. */
const dumpSql = `SELECT ${businessTables
  .map((table) => {
    const columns = Object.values(getTableColumns(table))
      .map((c) => `typeof(${c.name}), hex(${c.name})`)
      .join(", ");
    const name = getTableName(table);
    return `(SELECT json_group_array(json_array(${columns})) FROM (SELECT * FROM ${name} WHERE business_id = ?1 ORDER BY rowid)) AS ${name}`;
  })
  .join(", ")}`;

/** Everything a business has stored in D1, plus the calendars of the given services. */
export async function storedState(businessId: string, calendarServiceIds: readonly string[] = []) {
  const tables = await env.DB_0.prepare(dumpSql).bind(businessId).first();
  const calendars = await Promise.all(calendarServiceIds.map((id) => calendarStub(businessId, id).snapshot()));
  return { tables, calendars };
}

/** The same rows, decoded, for failure messages. */
async function readableState(businessId: string) {
  const d = db();
  const [svc, cus, bkg, idem] = await d.batch([
    d.select().from(services).where(eq(services.businessId, businessId)),
    d.select().from(customers).where(eq(customers.businessId, businessId)),
    d.select().from(bookings).where(eq(bookings.businessId, businessId)),
    d.select().from(idempotencyKeys).where(eq(idempotencyKeys.businessId, businessId)),
  ]);
  return { services: svc, customers: cus, bookings: bkg, idempotencyKeys: idem };
}

type SendOptions = { body?: unknown; rawBody?: BodyInit; headers?: Record<string, string> };

/**
 * Sends one request with a key of `ring`, checks the invariants, and when the answer is a
 * rejection (≥ 400) checks that nothing the business stored changed.
 */
export async function sendChecked(
  ring: KeyRing,
  method: string,
  path: string,
  options: SendOptions & { context?: string } = {},
): Promise<Checked> {
  const before = ring.known ?? (await storedState(ring.businessId, ring.watched));
  ring.known = undefined;
  const res = await api(method, path, { ...options, key: await ring.key() });
  const context = printable(`${method} ${path} ${options.context ?? describeBody(options)}`);
  const checked = await expectSane(res, context);
  if (checked.status >= 400) {
    const after = await storedState(ring.businessId, ring.watched);
    if (JSON.stringify(after) !== JSON.stringify(before)) {
      const rows = printable(JSON.stringify(await readableState(ring.businessId)).slice(0, 3000));
      expect(after, `stored data changed by a rejected request: ${context} → ${checked.status}\nnow: ${rows}`).toEqual(
        before,
      );
    }
    ring.known = after;
  }
  return checked;
}

/** Percent-encodes where possible (lone surrogates cannot be), else leaves the text raw. */
export function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A short, printable description of a request body for failure messages. */
export function describeBody(options: SendOptions): string {
  const raw =
    options.body !== undefined
      ? JSON.stringify(options.body)
      : typeof options.rawBody === "string"
        ? options.rawBody
        : options.rawBody instanceof Uint8Array
          ? `<${options.rawBody.byteLength} bytes>`
          : "";
  const shown = raw.length > 300 ? `${raw.slice(0, 300)}…(${raw.length} chars)` : raw;
  return `${JSON.stringify(options.headers ?? {})} ${shown}`;
}

// --- time -------------------------------------------------------------------------------------

/** An instant with seconds precision and a trailing Z. */
export const isoZ = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/** Midnight UTC `days` days from today. */
export const dayStart = (days: number) => Math.floor(Date.now() / DAY_MS) * DAY_MS + days * DAY_MS;

/** A 30-minute-aligned start between 2 and 700 days ahead (for the all-day fixture service). */
export const futureSlot = fc
  .tuple(fc.integer({ min: 2, max: 700 }), fc.integer({ min: 0, max: 47 }))
  .map(([day, slot]) => isoZ(dayStart(day) + slot * 30 * MINUTE_MS));

// --- fixtures ---------------------------------------------------------------------------------

/** A service open around the clock with room for many bookings per slot. */
export async function createRoomyService(ring: KeyRing, overrides: Record<string, unknown> = {}) {
  ring.known = undefined;
  const res = await api("POST", "/services", {
    key: await ring.key(),
    body: serviceBody({ weeklySchedule: allDay, capacity: 1000, maxAdvanceDays: 730, ...overrides }),
  });
  if (res.status !== 201) throw new Error(`service create failed: ${res.status} ${await res.text()}`);
  return json(res) as Promise<{ id: string; name: string }>;
}

let slotCounter = 0;

/** A valid booking body for `serviceId`, each call at a new slot and with a new e-mail. */
export function freshBookingBody(serviceId: string, overrides: Record<string, unknown> = {}) {
  slotCounter += 1;
  const start = dayStart(3 + (slotCounter % 600)) + ((slotCounter * 7) % 48) * 30 * MINUTE_MS;
  return {
    serviceId,
    customerName: "Fuzz Customer",
    customerEmail: `${crypto.randomUUID()}@example.com`,
    startTime: isoZ(start),
    endTime: isoZ(start + 30 * MINUTE_MS),
    ...overrides,
  };
}

/** Creates a booking through the API (must succeed) and returns its JSON. */
export async function createBookingVia(ring: KeyRing, serviceId: string) {
  ring.known = undefined;
  const res = await api("POST", "/bookings", { key: await ring.key(), body: freshBookingBody(serviceId) });
  if (res.status !== 201) throw new Error(`booking create failed: ${res.status} ${await res.text()}`);
  return json(res) as Promise<{ id: string; customerId: string; status: string }>;
}

// --- hostile values ---------------------------------------------------------------------------

/** SQL and LIKE metacharacters, and strings that look like SQL. */
export const sqlish = fc.constantFrom(
  "' OR 1=1 --",
  "' OR '1'='1",
  "'; DROP TABLE customers; --",
  '" OR ""="',
  "%",
  "_",
  "\\",
  "%_\\",
  "\\%",
  "\\_",
  "a%b_c\\d",
  "%%",
  "*/ --",
  "`",
  "$1",
  "?1",
  ":name",
  "@x",
  "0) UNION SELECT * FROM api_keys --",
);

export const edgeNumber = fc.constantFrom(
  0,
  -0,
  1e308,
  -1e308,
  2 ** 53 + 1,
  2 ** 53,
  -(2 ** 53) - 1,
  1.5,
  -1.5,
  0.1,
  -1,
  1,
  30,
  60,
  1000,
  1001,
  1440,
  1441,
  525_600,
  525_601,
  730,
  731,
  2 ** 31,
  -(2 ** 31),
  2 ** 63,
  Number.MIN_VALUE,
  Number.MAX_SAFE_INTEGER,
);

export const numberishString = fc.constantFrom(
  "NaN",
  "Infinity",
  "-Infinity",
  "1e308",
  "0x10",
  "1",
  "30",
  "",
  " ",
  "-0",
  "1.5",
  "9007199254740993",
  "true",
  "null",
);

/** Emoji, right-to-left text, NUL, BOM, lone surrogates and plain random strings. */
export const unicodeString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(
    "😀👩‍👩‍👧",
    "مرحبا بالعالم",
    "שלום",
    "\u202Eevil\u202C",
    "\u0000",
    "a\u0000b",
    "\ud800",
    "x\udfffy",
    "\ufeff",
    "İstanbul",
    "STRASSE ß ẞ",
    "\u00a0",
    "e\u0301",
    "Ǆǅǆ",
    "\u212a",
  ),
);

/** Strings of 10k–70k characters: either side of the 64 KiB body limit once encoded. */
export const longString = fc
  .tuple(
    fc.integer({ min: 10_000, max: 70_000 }),
    fc.constantFrom("a", "é", "😀", "%", "\u0000", "' OR 1=1 --", "\ud800", "ab"),
  )
  .map(([n, s]) => s.repeat(Math.ceil(n / s.length)).slice(0, n));

/** Date-time strings, real and nearly so. */
export const isoish = fc.oneof(
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  futureSlot,
  fc.constantFrom(
    "2026-02-30T10:00:00Z",
    "2026-12-01T10:00:00+01:00",
    "2026-12-01T10:00:00",
    "2026-12-01T24:00:00Z",
    "2026-12-01T10:00:00.123456789Z",
    "0000-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z",
    "2026-12-01",
    "10:00",
    "2026-13-01T10:00:00Z",
    "2026-12-01t10:00:00z",
    "2026-12-01T10:00:60Z",
  ),
);

/** Any hostile value for a JSON field. */
export const edgeValue: fc.Arbitrary<unknown> = fc.oneof(
  edgeNumber,
  numberishString,
  sqlish,
  unicodeString,
  longString,
  isoish,
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, true, false, [], {}, [null], { start: "09:00" }),
);

/** Property names: the route's own fields, prototype names and random strings. */
export const fieldName = (fields: readonly string[]) =>
  fc.oneof(
    fc.constantFrom(...fields),
    fc.constantFrom("__proto__", "constructor", "prototype", "toString", "id", "businessId", "createdAt", ""),
    fc.string({ unit: "binary", maxLength: 20 }),
  );

/** Objects whose keys are drawn from the route's fields and junk, with hostile values. */
export const randomObject = (fields: readonly string[]) =>
  fc.dictionary(fieldName(fields), edgeValue, { maxKeys: 8, noNullPrototype: true });

/** JSON texts that are not quite JSON (or that test the parser's edges). */
export function malformedJson(valid: string): fc.Arbitrary<string> {
  const nesting = fc.integer({ min: 500, max: 40_000 });
  return fc.oneof(
    fc.integer({ min: 0, max: Math.max(0, valid.length - 1) }).map((i) => valid.slice(0, i)),
    fc.string({ unit: "binary", minLength: 1, maxLength: 20 }).map((garbage) => valid + garbage),
    fc.constantFrom(
      "undefined",
      "NaN",
      "Infinity",
      "True",
      "nul",
      "{a:1}",
      "{'a':1}",
      "[1,]",
      "{,}",
      "01",
      "--1",
      '"unterminated',
      '{"a":1}}',
      "/* c */ {}",
      "{}garbage",
      '{"name":"x",}',
      '{"__proto__":{"active":false},"name":"x"}',
      '{"name":"a","name":123}',
      "\u0000",
      " ",
      "",
      "null",
      "[]",
      '"string"',
      "123",
    ),
    fc.constantFrom("\uFEFF", "\uFEFF\uFEFF", "\u00EF\u00BB\u00BF").map((bom) => bom + valid),
    nesting.map((n) => "[".repeat(n) + "]".repeat(n)),
    nesting.map((n) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`),
    nesting.map((n) => `${valid.slice(0, -1)},"name":${"[".repeat(n)}${"]".repeat(n)}}`),
    nesting.map((n) => "[".repeat(n)),
    fc.string({ unit: "binary", maxLength: 60 }),
  );
}

/** Sets `value` at `path` inside a copy of `body` (creating arrays/objects on the way). */
export function withValueAt(body: Record<string, unknown>, path: readonly (string | number)[], value: unknown) {
  const copy = structuredClone(body) as Record<string, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (const [i, step] of path.entries()) {
    if (i === path.length - 1) {
      Object.defineProperty(node, step, { value, enumerable: true, writable: true, configurable: true });
    } else {
      const next = node[step];
      if (next === null || typeof next !== "object") node[step] = typeof path[i + 1] === "number" ? [] : {};
      node = node[step] as Record<string | number, unknown>;
    }
  }
  return copy;
}

// --- request bodies ---------------------------------------------------------------------------

/** A request body: a JSON value to serialise, a raw text, or raw bytes (maybe not UTF-8). */
export type BodyCase =
  | { kind: "valid"; value: Record<string, unknown> }
  | { kind: "json"; value: unknown }
  | { kind: "raw"; text: string }
  | { kind: "bytes"; bytes: Uint8Array };

export type BodyShape = {
  /** Valid bodies of the route. */
  valid: fc.Arbitrary<Record<string, unknown>>;
  /** The route's own field names. */
  fields: readonly string[];
  /** Where to put a hostile value inside a valid body (defaults to each field). */
  paths?: readonly (readonly (string | number)[])[];
  /** Extra values worth trying in any field (e.g. ids of other resources). */
  extraValues?: fc.Arbitrary<unknown>;
};

const rawMarker = "__raw_number__";

const rawNumber = fc.constantFrom(
  "-0",
  "-0.0",
  "1e400",
  "-1e400",
  "1E2",
  "30e0",
  "3.0e1",
  "1e-400",
  "30.000000000000001",
  "9007199254740993",
  "1.0",
  "00",
  "+1",
  ".5",
  "NaN",
  "0x1e",
);

/** Every kind of body for a route: valid, junk JSON, valid-but-one-field, malformed text, bytes. */
export function bodyCases({ valid, fields, paths, extraValues }: BodyShape): fc.Arbitrary<BodyCase> {
  const where = paths ?? fields.map((f) => [f]);
  const value = extraValues ? fc.oneof(edgeValue, extraValues) : edgeValue;
  return fc.oneof(
    valid.map((v): BodyCase => ({ kind: "valid", value: v })),
    fc.jsonValue({ maxDepth: 4 }).map((v): BodyCase => ({ kind: "json", value: v })),
    randomObject(fields).map((v): BodyCase => ({ kind: "json", value: v })),
    {
      weight: 4,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...where), value)
        .map(([v, path, x]): BodyCase => ({ kind: "json", value: withValueAt(v, path, x) })),
    },
    fc
      .tuple(valid, fieldName(fields), value)
      .map(([v, extra, x]): BodyCase => ({ kind: "json", value: withValueAt(v, [extra], x) })),
    {
      weight: 2,
      arbitrary: valid.chain((v) => malformedJson(JSON.stringify(v))).map((text): BodyCase => ({ kind: "raw", text })),
    },
    fc.uint8Array({ maxLength: 200 }).map((bytes): BodyCase => ({ kind: "bytes", bytes })),
    // Number literals JSON.stringify never writes: -0, overflow to ±Infinity, exponents, and non-JSON forms.
    fc.tuple(valid, fc.constantFrom(...where), rawNumber).map(([v, path, n]): BodyCase => {
      const text = JSON.stringify(withValueAt(v, path, rawMarker)).replace(JSON.stringify(rawMarker), n);
      return { kind: "raw", text };
    }),
  );
}

/** Request options that send a body case as `application/json`. */
export function bodyOptions(body: BodyCase): SendOptions {
  const headers = { "Content-Type": "application/json" };
  switch (body.kind) {
    case "valid":
    case "json":
      return { rawBody: JSON.stringify(body.value), headers };
    case "raw":
      return { rawBody: body.text, headers };
    case "bytes":
      return { rawBody: body.bytes, headers };
  }
}
