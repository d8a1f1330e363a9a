/**
 * Fuzzed path ids for every single-resource route (GET, PATCH, cancel, availability): encoded
 * unicode, dot segments, very long ids, SQL, broken escapes and the ids of another business.
 * The answer is a 404 or 422 problem (never a 5xx), never shows another tenant's data, and
 * changes nothing of either tenant. Then any method (HEAD, PUT, DELETE, OPTIONS, PROPFIND…) on
 * any of those paths: never a 5xx, and a 4xx is a problem.
 */
import { exports } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { origin } from "../support/api";
import {
  check,
  createBookingVia,
  createRoomyService,
  encode,
  expectSane,
  KeyRing,
  printable,
  sendChecked,
  sqlish,
  storedState,
  unicodeString,
} from "../support/fuzz";

const RUNS = 150;

let ring: KeyRing;
let other: KeyRing;
let mineIds: string[];
let theirIds: string[];
let theirSecrets: string[];

beforeAll(async () => {
  ring = await KeyRing.create("Fuzz paths");
  const service = await createRoomyService(ring, { name: "Mine" });
  const booking = await createBookingVia(ring, service.id);
  ring.watched.push(service.id);
  mineIds = [service.id, booking.id, booking.customerId];

  other = await KeyRing.create("Tenant B");
  const theirService = await createRoomyService(other, { name: "Tenant-B-secret-service" });
  const theirBooking = await createBookingVia(other, theirService.id);
  other.watched.push(theirService.id);
  theirIds = [theirService.id, theirBooking.id, theirBooking.customerId];
  theirSecrets = [...theirIds, "Tenant-B-secret-service"];
});

const operations = [
  { method: "GET", path: (id: string) => `/services/${id}` },
  { method: "PATCH", path: (id: string) => `/services/${id}`, body: { description: "hijacked" } },
  { method: "GET", path: (id: string) => `/services/${id}/availability` },
  { method: "GET", path: (id: string) => `/customers/${id}` },
  { method: "GET", path: (id: string) => `/bookings/${id}` },
  { method: "PATCH", path: (id: string) => `/bookings/${id}`, body: { notes: "hijacked" } },
  { method: "POST", path: (id: string) => `/bookings/${id}/cancel`, body: { reason: "hijacked" } },
] as const;

/** Path segments: each is already in URL form (percent-encoded unless deliberately raw). */
const segment = fc.oneof(
  fc.string({ unit: "binary", minLength: 1, maxLength: 30 }).map(encode),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }).map(encode),
  unicodeString.filter((s) => s !== "").map(encode),
  sqlish.map(encode),
  fc.constantFrom(
    "..",
    ".",
    "%2e%2e",
    "%2E",
    "..%2F..%2Fcustomers",
    "%2F",
    "a%2Fb",
    "a/b",
    "%00",
    "%ZZ",
    "%",
    "%25",
    "%C0%AF",
    "%E0%A4%A",
    "svc_x'%20OR%20'1'%3D'1",
    "*",
    "null",
    "undefined",
    "__proto__",
    "constructor",
    "toString",
    "%20",
    "+",
    "~",
    ";",
    ",",
    "@",
    "$",
    "cancel",
    "availability",
    "svc_",
    "bkg_",
    "cus_",
  ),
  fc
    .tuple(fc.integer({ min: 65, max: 5000 }), fc.constantFrom("a", "é", "😀", "%", "_"))
    .map(([n, c]) => encode(c.repeat(n))),
  // The other tenant's ids, exactly and nearly.
  fc.tuple(fc.nat(), fc.constantFrom("exact", "upper", "space", "nul", "encoded")).map(([i, how]) => {
    const id = theirIds[i % theirIds.length] as string;
    return { exact: id, upper: id.toUpperCase(), space: `${id}%20`, nul: `${id}%00`, encoded: encodeAll(id) }[how];
  }),
  // Near misses of our own ids.
  fc.tuple(fc.nat(), fc.constantFrom("upper", "extend", "truncate", "space", "encoded")).map(([i, how]) => {
    const id = mineIds[i % mineIds.length] as string;
    return {
      upper: id.toUpperCase(),
      extend: `${id}x`,
      truncate: id.slice(0, -1),
      space: `%20${id}`,
      encoded: encodeAll(id),
    }[how];
  }),
);

/** Every character percent-encoded, e.g. `%73%76%63…`. */
function encodeAll(text: string): string {
  return [...new TextEncoder().encode(text)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");
}

function decoded(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}

describe("fuzzed path ids", () => {
  it("unknown, malformed and foreign ids are 404/422 problems that leak and change nothing", async () => {
    const theirsBefore = await storedState(other.businessId, other.watched);
    await check(
      fc.tuple(fc.constantFrom(...operations.keys()), segment),
      async ([opIndex, seg]) => {
        const op = operations[opIndex] as (typeof operations)[number];
        const path = op.path(seg);
        const body = "body" in op ? op.body : undefined;
        const res = await sendChecked(ring, op.method, path, { body });
        const context = printable(`${op.method} ${path.slice(0, 300)} → ${res.status} ${res.text.slice(0, 300)}`);

        // The problem may quote the id the caller sent; anything else of tenant B is a leak.
        for (const secret of theirSecrets) {
          if (seg.includes(secret) || decoded(seg).includes(secret)) continue;
          expect(res.text.includes(secret), `leak of ${secret}: ${context}`).toBe(false);
        }
        const mine = mineIds.includes(decoded(seg));
        // Dot segments (also as %2e) are resolved by the URL parser: that is another route.
        const normalisedAway = new URL(`${origin}/api/v1${path}`).pathname !== `/api/v1${path}`;
        if (!mine && !normalisedAway && !seg.includes("/")) {
          expect([404, 422], context).toContain(res.status);
        }
      },
      RUNS,
    );
    expect(await storedState(other.businessId, other.watched)).toEqual(theirsBefore);
  });

  it("any method on any route is answered without a 5xx, and 4xx answers are problems", async () => {
    const methods = fc.constantFrom("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND", "get");
    const paths = fc.oneof(
      fc.constantFrom("/services", "/customers", "/bookings", "/health", "/openapi.json", "/problems/not_found", ""),
      fc
        .constantFrom(...operations.keys())
        .chain((i) => segment.map((seg) => (operations[i] as (typeof operations)[number]).path(seg))),
    );
    await check(
      fc.tuple(methods, paths, fc.boolean()),
      async ([method, path, withBody]) => {
        const headers: Record<string, string> = { Authorization: `Bearer ${await ring.key()}` };
        let rawBody: string | undefined;
        if (withBody && method !== "GET" && method !== "HEAD" && method !== "get") {
          rawBody = JSON.stringify({ description: "by method" });
          headers["Content-Type"] = "application/json";
        }
        const res = await exports.default.fetch(
          new Request(`${origin}/api/v1${path}`, { method, headers, body: rawBody }),
        );
        ring.known = undefined; // this request may write (a PATCH of an encoded own id)
        const context = printable(`${method} ${path.slice(0, 200)}`);
        if (method === "HEAD") {
          expect(res.status, context).toBeLessThan(500);
          if (res.status >= 400)
            expect(res.headers.get("Content-Type"), context).toMatch(/^application\/problem\+json/);
          return;
        }
        await expectSane(res, context);
      },
      100,
    );
  });
});
