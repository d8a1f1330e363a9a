/**
 * Fuzzed request headers: Authorization, Content-Type, Idempotency-Key and X-Request-Id.
 * Never a 5xx; wrong credentials are always a 401 with a Bearer challenge; a malformed
 * Idempotency-Key is a 422 that stores nothing; a client request id is echoed only when sane.
 */
import { exports } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { origin } from "../support/api";
import {
  check,
  createBookingVia,
  createRoomyService,
  expectSane,
  freshBookingBody,
  futureSlot,
  KeyRing,
  MINUTE_MS,
  printable,
  sendChecked,
  shown,
  storedState,
} from "../support/fuzz";

let ring: KeyRing;
let roomy: { id: string };
let validKey: string;

beforeAll(async () => {
  ring = await KeyRing.create("Fuzz headers");
  roomy = await createRoomyService(ring, { name: "Roomy" });
  ring.watched.push(roomy.id);
  // The ring's first key: the auth property sends it (and near misses of it) itself. It stays
  // valid after the ring moves on to fresh keys.
  validKey = await ring.key();
});

/** What `Headers` keeps of a value: leading and trailing HTTP whitespace is stripped. */
const normalised = (value: string) => value.replace(/^[\t ]+|[\t ]+$/g, "");

/**
 * Header-safe text: printable ASCII, tab and DEL. (workerd also takes non-ASCII values, sending
 * them as UTF-8 with a warning per request; a few fixed ones below cover that without the noise.)
 */
const headerText = fc.string({
  unit: fc.oneof(
    { weight: 12, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
    fc.constantFrom("\t", "\x7f", "\x01"),
  ),
  maxLength: 80,
});

/** Non-ASCII header values, rare on purpose. */
const unicodeHeader = fc.constantFrom("é", "😀", "\u202Eevil", "ñandú", "\u00a0x");

/** Builds Headers from untrusted values; `undefined` when the platform refuses one of them. */
function headersOf(values: Record<string, string>): Headers | undefined {
  try {
    return new Headers(values);
  } catch {
    return undefined;
  }
}

const authRoutes: { method: string; path: () => string; body?: () => unknown }[] = [
  { method: "GET", path: () => "/services" },
  { method: "GET", path: () => "/customers?search=a" },
  { method: "GET", path: () => "/bookings" },
  { method: "GET", path: () => `/services/${roomy.id}` },
  { method: "GET", path: () => `/services/${roomy.id}/availability` },
  { method: "GET", path: () => "/customers/cus_nope" },
  { method: "POST", path: () => "/customers", body: () => ({ name: "Auth", email: `${crypto.randomUUID()}@x.io` }) },
  { method: "PATCH", path: () => `/services/${roomy.id}`, body: () => ({ description: "auth" }) },
  { method: "POST", path: () => "/bookings/bkg_nope/cancel", body: () => ({}) },
];

/** Authorization values: empty, scheme only, near-misses of a real key, random and very long text. */
const authorization = fc.oneof(
  fc.constantFrom("", " ", "Bearer", "Bearer ", "bearer", "Basic dXNlcjpwYXNz", "Token abc", "Bearer null", "Bearer\t"),
  fc.constantFrom("bk_live_", "bk_test_", "bk_live_0000000000000000", "bk_test_ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ"),
  headerText.map((s) => `Bearer ${s}`),
  headerText,
  unicodeHeader.map((s) => `Bearer ${s}`),
  fc.integer({ min: 1000, max: 20_000 }).map((n) => `Bearer bk_live_${"A".repeat(n)}`),
  fc
    .integer({ min: 16, max: 70 })
    .chain((n) =>
      fc
        .string({ unit: fc.constantFrom(..."0123456789abcdefXYZ"), minLength: n, maxLength: n })
        .map((s) => `Bearer bk_${n % 2 ? "live" : "test"}_${s}`),
    ),
  // Variants of the real key: other scheme casing and spacing (accepted), or one character off (refused).
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.constantFrom("Bearer ", "bearer ", "BEARER  ", " Bearer ", "Bearer\t", "Bearer:", "Bearer=", ""),
        fc.oneof(
          { weight: 3, arbitrary: fc.constant("same" as const) },
          fc.constantFrom("upper" as const, "truncate" as const, "extend" as const, "flip" as const, "space" as const),
        ),
        fc.nat(),
      )
      .map(([scheme, how, i]) => {
        const key = validKey;
        const at = 8 + (i % (key.length - 8));
        const mutated = {
          same: key,
          upper: key.toUpperCase(),
          truncate: key.slice(0, at),
          extend: `${key}x`,
          flip: `${key.slice(0, at)}${key[at] === "A" ? "B" : "A"}${key.slice(at + 1)}`,
          space: `${key} ${key}`,
        }[how];
        return `${scheme}${mutated}`;
      }),
  },
);

/** The model of the auth middleware: `Bearer <key>` (any casing, spaces) with the exact key. */
function acceptedAuth(sent: string): boolean {
  const match = /^bearer +(\S+)$/i.exec(normalised(sent).trim());
  return match?.[1] === validKey;
}

/** Idempotency-Key values of 0–300 characters, visible ASCII or not. */
const idempotencyKey = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 }),
  fc.tuple(fc.integer({ min: 250, max: 260 }), fc.uuid()).map(([n, uuid]) => `k${uuid}`.padEnd(n, "x")),
  headerText,
  unicodeHeader,
  fc.constantFrom("", " ", "a b", "\t", "key\x7f", "x".repeat(255), "x".repeat(256)),
);

/** The model: 1–255 visible ASCII characters, after Headers trimmed the ends. */
const saneIdempotencyKey = (sent: string) => /^[\x21-\x7e]{1,255}$/.test(normalised(sent));

describe("fuzzed headers", () => {
  it("a wrong Authorization is always 401 with a Bearer challenge; the right key in any spelling is not", async () => {
    // Bodies that would be a 400, 415 or 422 with a good key: authentication is decided first.
    const bodyKind = fc.constantFrom("valid", "malformed", "invalid", "text");
    await check(
      fc.tuple(authorization, fc.constantFrom(...authRoutes.keys()), bodyKind),
      async ([auth, routeIndex, kind]) => {
        const route = authRoutes[routeIndex] as (typeof authRoutes)[number];
        const headers = headersOf({
          Authorization: auth,
          "Content-Type": kind === "text" ? "text/plain" : "application/json",
        });
        // A value the platform will not put in a header cannot be sent at all: not a case.
        fc.pre(headers !== undefined);
        let rawBody: string | undefined;
        if (route.body) {
          rawBody = {
            valid: JSON.stringify(route.body()),
            malformed: '{"name":',
            invalid: '{"nope":1}',
            text: "hello",
          }[kind];
        }
        const accepted = acceptedAuth(auth);
        const before =
          !accepted && rawBody !== undefined ? await storedState(ring.businessId, ring.watched) : undefined;
        const res = await rawFetch(route.method, route.path(), headers, rawBody);
        const context = printable(
          `${route.method} ${route.path()} Authorization: ${JSON.stringify(auth.slice(0, 200))} body ${kind}`,
        );
        const checked = await expectSane(res, context);
        if (accepted) {
          expect(checked.status, context).not.toBe(401);
          ring.known = undefined;
        } else {
          expect(checked.status, context).toBe(401);
          expect((checked.body as { code: string }).code).toBe("unauthorized");
          const challenge = res.headers.get("WWW-Authenticate");
          const sentKey = normalised(auth) !== "";
          expect(challenge, context).toBe(sentKey ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"');
          if (before) expect(await storedState(ring.businessId, ring.watched), context).toEqual(before);
        }
      },
      150,
    );
  });

  it("any Content-Type on a POST is read or a 415: only application/json, in UTF-8; a 415 stores nothing", async () => {
    const mediaType = fc.oneof(
      fc.constantFrom(
        "application/json",
        "application/json; charset=utf-8",
        "APPLICATION/JSON",
        "application/problem+json",
        "application/vnd.api+json",
        "application/json;charset=UTF-8",
        "application/json;",
        "application/json ; charset=utf-8",
        "application/json; charset=",
        "application/jsonx",
        "application/x-json",
        "text/json",
        "text/plain",
        "text/html",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/octet-stream",
        "*/*",
        "",
        "json",
        "application/",
        "/json",
        "application/json, text/plain",
        "application/json; charset=utf-8; charset=latin1",
        "application/json; charset=iso-8859-1",
        'application/json; charset="UTF-8"',
        "application/json; charset=utf8",
        "application/merge-patch+json",
        "application/json; charset=utf-8; profile=x",
      ),
      headerText,
      unicodeHeader.map((u) => `application/json; charset=${u}`),
      fc
        .tuple(fc.constantFrom("application/json", "application/merge-patch+json", "text/plain"), headerText)
        .map(([t, p]) => `${t};${p}`),
    );
    const target = fc.constantFrom("/customers", "/services", "/bookings", "cancel");
    await check(
      fc.tuple(mediaType, target, futureSlot),
      async ([type, to, start]) => {
        const headers = headersOf({ "Content-Type": type });
        // A value the platform will not put in a header cannot be sent at all: not a case.
        fc.pre(headers !== undefined);
        const sent = headers.get("Content-Type") ?? "";
        let path: string = to;
        let body: unknown;
        if (to === "/customers") body = { name: "Typed", email: `${crypto.randomUUID()}@example.com` };
        if (to === "/services") body = { name: "Typed", durationMinutes: 30, timezone: "UTC", weeklySchedule: {} };
        if (to === "/bookings") body = freshBookingBody(roomy.id, { startTime: start, endTime: plus30(start) });
        if (to === "cancel") {
          path = `/bookings/${(await createBookingVia(ring, roomy.id)).id}/cancel`;
          body = { reason: "Typed" };
        }
        const res = await sendChecked(ring, "POST", path, {
          rawBody: JSON.stringify(body),
          headers: { "Content-Type": sent },
        });
        const shownRes = printable(`${sent} → ${res.text}`);
        // The body is valid: it is read (2xx) or its label refused (415), nothing in between.
        if (res.status !== 415) expect(res.status, shownRes).toBeLessThan(300);
        else expect((res.body as { code: string }).code).toBe("unsupported_media_type");
        const essence = sent.split(";")[0]?.trim().toLowerCase() ?? "";
        // Only application/json, not any +json type nor text/json.
        if (essence !== "application/json") expect(res.status, shownRes).toBe(415);
        // A charset other than utf-8 (unquoted, outside any quoted value) is refused.
        const charsets = sent.includes('"') ? [] : [...sent.matchAll(/;[\t ]*charset=([^;\t ]*)/gi)];
        if (charsets.some(([, value]) => value?.toLowerCase() !== "utf-8")) expect(res.status, shownRes).toBe(415);
        if (/^application\/json([\t ]*;[\t ]*charset=("?)utf-8\2)?$/i.test(sent))
          expect(res.status, shownRes).toBeLessThan(300);
      },
      60,
    );
  });

  it("an Idempotency-Key of 0–300 characters is used when sane and a 422 that stores nothing otherwise", async () => {
    type Sent = { key: string; path: string; body: unknown; status: number; response: unknown };
    const seen = new Map<string, string>();
    let last: Sent | undefined;
    await check(
      fc.tuple(
        idempotencyKey,
        fc.boolean(),
        futureSlot,
        fc.uuid(),
        fc.constantFrom("new" as const, "new" as const, "replay" as const, "conflict" as const),
      ),
      async ([key, onCreate, start, email, mode]) => {
        const headers = headersOf({ "Idempotency-Key": key });
        // A value the platform will not put in a header cannot be sent at all: not a case.
        fc.pre(headers !== undefined);
        let sent = headers.get("Idempotency-Key") ?? "";
        let path = "/bookings";
        let body: unknown = freshBookingBody(roomy.id, {
          startTime: start,
          endTime: plus30(start),
          customerEmail: `${email}@example.com`,
        });
        if (!onCreate) {
          path = `/bookings/${(await createBookingVia(ring, roomy.id)).id}/cancel`;
          body = { reason: "Idempotent" };
        }

        if (mode === "replay" && last) {
          // The same key and request again: the first answer, replayed, and nothing new stored.
          const before = await storedState(ring.businessId, ring.watched);
          const again = await sendChecked(ring, "POST", last.path, {
            body: last.body,
            headers: { "Idempotency-Key": last.key },
          });
          const context = printable(
            `replay of ${last.path} with ${JSON.stringify(last.key)} → ${again.status} ${again.text}`,
          );
          expect(again.status, context).toBe(last.status);
          expect(shown(again.body), context).toBe(shown(last.response));
          expect(again.replayed, context).toBe("true");
          expect(await storedState(ring.businessId, ring.watched), context).toEqual(before);
          return;
        }
        if (mode === "conflict" && last) sent = last.key; // the same key for another request

        const res = await sendChecked(ring, "POST", path, { body, headers: { "Idempotency-Key": sent } });
        const context = printable(
          `POST ${path} Idempotency-Key: ${JSON.stringify(sent)} → ${res.status} ${res.text.slice(0, 300)}`,
        );
        if (!saneIdempotencyKey(sent)) {
          expect(res.status, context).toBe(422);
          expect((res.body as { code: string }).code, context).toBe("validation_failed");
          return;
        }
        const fingerprint = `${path} ${JSON.stringify(body)}`;
        const prior = seen.get(sent);
        if (prior !== undefined && prior !== fingerprint) {
          expect(res.status, context).toBe(422);
          expect((res.body as { code: string }).code, context).toBe("idempotency_key_reused");
        } else {
          expect(res.status, context).toBe(onCreate ? 201 : 200);
          seen.set(sent, fingerprint);
          last = { key: sent, path, body, status: res.status, response: res.body };
        }
      },
      60,
    );
  });

  it("X-Request-Id is echoed only when it is 1–128 of [A-Za-z0-9_=-], else replaced", async () => {
    const requestId = fc.oneof(
      fc.string({ unit: fc.constantFrom(..."abcXYZ019_-="), minLength: 1, maxLength: 140 }),
      headerText,
      unicodeHeader,
      fc.integer({ min: 120, max: 300 }).map((n) => "r".repeat(n)),
      fc.constantFrom("", " ", "a b", "abc;def", "../../etc", "<script>", "id\t"),
    );
    const targets = fc.constantFrom("/health", "/services", "/nope", "/customers/cus_nope", "/services?limit=0");
    await check(
      fc.tuple(requestId, targets, fc.boolean()),
      async ([id, path, authenticated]) => {
        const headers = headersOf({ "X-Request-Id": id });
        // A value the platform will not put in a header cannot be sent at all: not a case.
        fc.pre(headers !== undefined);
        if (authenticated) headers.set("Authorization", `Bearer ${await ring.key()}`);
        const sent = headers.get("X-Request-Id") ?? "";
        const res = await rawFetch("GET", path, headers);
        const context = printable(`GET ${path} X-Request-Id: ${JSON.stringify(sent)}`);
        const checked = await expectSane(res, context);
        const echoed = res.headers.get("X-Request-Id");
        if (/^[\w=-]{1,128}$/.test(sent)) {
          expect(echoed, context).toBe(sent);
        } else {
          expect(echoed, context).not.toBe(sent);
          expect(echoed, context).toMatch(/^[\w-]{8,128}$/);
        }
        if (checked.status >= 400) expect((checked.body as { requestId: string }).requestId).toBe(echoed);
      },
      150,
    );
  });

  it("If-Match on PATCH: a tag that does not name the current ETag is a 412 that changes nothing", async () => {
    const booking = await createBookingVia(ring, roomy.id);
    const tagHeader = fc.oneof(
      fc.constantFrom("current", "star", "padded", "weak", "list-first", "list-last", "stale", "empty", "quoted-junk"),
      headerText,
    );
    await check(
      fc.tuple(fc.constantFrom("service", "booking"), tagHeader, fc.string({ maxLength: 20 })),
      async ([target, how, note]) => {
        const path = target === "service" ? `/services/${roomy.id}` : `/bookings/${booking.id}`;
        const current = await rawFetch("GET", path, new Headers({ Authorization: `Bearer ${await ring.key()}` }));
        const etag = current.headers.get("ETag") ?? "";
        expect(etag).toMatch(/^"[^"]+"$/);
        const stale = target === "service" ? '"0"' : '"v0"';
        const value =
          {
            current: etag,
            star: "*",
            padded: `  ${etag}  `,
            weak: `W/${etag}`,
            "list-first": `${etag}, "zzz"`,
            "list-last": `"zzz", ${etag}`,
            stale,
            empty: "",
            "quoted-junk": `"${note.replaceAll('"', "")}"`,
          }[how] ?? how;
        const headers = headersOf({ "If-Match": value });
        // A value the platform will not put in a header cannot be sent at all: not a case.
        fc.pre(headers !== undefined);
        const sent = headers.get("If-Match") ?? "";
        const body = target === "service" ? { description: `If-Match ${note}` } : { notes: `If-Match ${note}` };
        const res = await sendChecked(ring, "PATCH", path, { body, headers: { "If-Match": sent } });
        const context = printable(
          `PATCH ${path} If-Match: ${JSON.stringify(sent)} (current ${etag}) → ${res.status} ${res.text}`,
        );
        // RFC 9110 §13.1.1: true for "*" or when any listed tag matches strongly; an empty field is no condition.
        const tags = sent.split(",").map((t) => t.trim());
        const holds = sent.trim() === "" || sent.trim() === "*" || tags.includes(etag);
        if (!holds) {
          expect(res.status, context).toBe(412);
          expect((res.body as { code: string }).code).toBe("precondition_failed");
        } else if (target === "service" || tags.length === 1) {
          expect(res.status, context).toBe(200);
        } else {
          // A list naming the current booking tag: the booking route only takes a single tag (see report).
          expect([200, 412], context).toContain(res.status);
        }
      },
      50,
    );
  });
});

const plus30 = (iso: string) => `${new Date(Date.parse(iso) + 30 * MINUTE_MS).toISOString().slice(0, 19)}Z`;

/** Sends a request with exactly these headers (the shared helper would add its own). */
function rawFetch(method: string, path: string, headers: Headers, rawBody?: string): Promise<Response> {
  return exports.default.fetch(new Request(`${origin}/api/v1${path}`, { method, headers, body: rawBody }));
}
