/**
 * Fuzzed JSON bodies for the booking writes: POST /bookings, PATCH /bookings/{id} and
 * POST /bookings/{id}/cancel. Never a 5xx; a rejection is a problem+json and changes nothing
 * in D1 nor in the service's calendar (reservations, counters, outbox).
 */
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings } from "../../src/db/schema";
import { api, createAccount, createService, db, json } from "../helpers";
import {
  bodyCases,
  bodyOptions,
  check,
  createBookingVia,
  createRoomyService,
  futureSlot,
  KeyRing,
  MINUTE_MS,
  sendChecked,
} from "./support";

const RUNS = 150;

const bookingFields = [
  "serviceId",
  "customerName",
  "customerEmail",
  "customerPhone",
  "startTime",
  "endTime",
  "notes",
] as const;

let ring: KeyRing;
let roomy: { id: string };
let inactive: { id: string };
let foreignServiceId: string;
let live: { id: string } | undefined;

beforeAll(async () => {
  ring = await KeyRing.create("Fuzz bookings");
  roomy = await createRoomyService(ring, { name: "Roomy" });
  inactive = await createRoomyService(ring, { name: "Closed", active: false });
  ring.watched.push(roomy.id, inactive.id);
  const other = await createAccount("Other tenant");
  foreignServiceId = (await createService(other.apiKey)).id;
});

/** A booking of the roomy service that still holds its slot (a new one once the last is final). */
async function liveBookingId(): Promise<string> {
  if (live) {
    const [row] = await db().select({ status: bookings.status }).from(bookings).where(eq(bookings.id, live.id));
    if (row && (row.status === "CONFIRMED" || row.status === "PENDING")) return live.id;
  }
  live = await createBookingVia(ring, roomy.id);
  return live.id;
}

const validBooking = fc
  .record({ start: futureSlot, name: fc.string({ minLength: 1, maxLength: 40 }), email: fc.uuid() })
  .map(
    ({ start, name, email }) =>
      ({
        serviceId: roomy.id,
        customerName: `B ${name}`,
        customerEmail: `${email}@example.com`,
        startTime: start,
        endTime: `${new Date(Date.parse(start) + 30 * MINUTE_MS).toISOString().slice(0, 19)}Z`,
      }) as Record<string, unknown>,
  );

/** Ids and times that are valid somewhere, but not here. */
const nearMisses = fc.oneof(
  fc.constantFrom("svc_00000000000000000000000000", "SVC_X"),
  fc.constant(null).map(() => inactive.id),
  fc.constant(null).map(() => foreignServiceId),
  fc.constant(null).map(() => roomy.id.toUpperCase()),
  fc.constant(null).map(() => `${roomy.id} `),
  fc.constantFrom("2000-01-01T10:00:00Z", "2999-01-01T10:00:00Z", "+01:00"),
);

describe("fuzzed bodies: bookings", () => {
  it("POST /bookings never fails, and rejections change nothing", async () => {
    await check(
      bodyCases({ valid: validBooking, fields: bookingFields, extraValues: nearMisses }),
      async (body) => {
        const res = await sendChecked(ring, "POST", "/bookings", bodyOptions(body));
        if (body.kind === "valid") expect(res.status, res.text).toBe(201);
        if (res.status === 201) {
          const created = res.body as { id: string };
          const got = await api("GET", `/bookings/${created.id}`, { key: await ring.key() });
          expect(got.status).toBe(200);
          expect(await json(got)).toEqual(created);
        }
      },
      RUNS,
    );
  });

  it("PATCH /bookings/{id} never fails, and rejections change nothing", async () => {
    const validPatch = fc.constantFrom<Record<string, unknown>>(
      { notes: "Changed." },
      { notes: null },
      { notes: "" },
      { status: "COMPLETED" },
      { status: "CANCELLED", cancellationReason: "Ill." },
      { status: "NO_SHOW", notes: "Did not come." },
    );
    await check(
      bodyCases({ valid: validPatch, fields: ["status", "notes", "cancellationReason"] }),
      async (body) => {
        const id = await liveBookingId();
        const res = await sendChecked(ring, "PATCH", `/bookings/${id}`, bodyOptions(body));
        if (body.kind === "valid") expect(res.status, res.text).toBe(200);
      },
      RUNS,
    );
  });

  it("POST /bookings/{id}/cancel never fails, and rejections change nothing", async () => {
    const validCancel = fc.constantFrom<Record<string, unknown>>({}, { reason: "Customer is ill." }, { reason: " x " });
    await check(
      bodyCases({ valid: validCancel, fields: ["reason"] }),
      async (body) => {
        const id = await liveBookingId();
        const res = await sendChecked(ring, "POST", `/bookings/${id}/cancel`, bodyOptions(body));
        if (body.kind === "valid") expect(res.status, res.text).toBe(200);
      },
      RUNS,
    );
  });
});
