/**
 * Once `PATCH /services/{id}` has answered 200, no booking is accepted against the settings it
 * replaced (the calendar knows the new version before the answer), and every change moves the
 * service's ETag.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { draftOf, snapshotOf } from "../../src/calendar/client";
import { services } from "../../src/db/schema";
import { at, bookingBody, calendarStub, postBooking } from "../bookings/support";
import { api, createAccount, createService, db, json, problem } from "../helpers";

async function setup(overrides: Record<string, unknown> = {}) {
  const { apiKey, businessId } = await createAccount();
  const service = await createService(apiKey, overrides);
  const [row] = await db().select().from(services).where(eq(services.id, service.id));
  // What a create that read D1 just before the change decided against.
  const stale = snapshotOf(row as NonNullable<typeof row>);
  return { apiKey, businessId, serviceId: service.id as string, stale };
}

const patchService = (key: string, id: string, body: unknown) => api("PATCH", `/services/${id}`, { key, body });

describe("happy", () => {
  it("a create decided before a deactivation is refused after the PATCH answered; the API says inactive", async () => {
    const s = await setup();
    expect((await patchService(s.apiKey, s.serviceId, { active: false })).status).toBe(200);
    const late = await calendarStub(s.businessId, s.serviceId).createBooking({
      service: s.stale,
      booking: draftOf(bookingBody(s.serviceId, at(3, "10:00"))),
      customerId: null,
    });
    expect(late).toMatchObject({ ok: false, refusal: { code: "service_changed" } });
    await problem(await postBooking(s.apiKey, bookingBody(s.serviceId, at(3, "10:00"))), 422, "service_inactive");
  });

  it("a create decided before the capacity was lowered is refused; decided again it is fully booked", async () => {
    const s = await setup({ capacity: 2 });
    expect((await postBooking(s.apiKey, bookingBody(s.serviceId, at(3, "11:00")))).status).toBe(201);
    expect((await patchService(s.apiKey, s.serviceId, { capacity: 1 })).status).toBe(200);
    const late = await calendarStub(s.businessId, s.serviceId).createBooking({
      service: s.stale,
      booking: draftOf(bookingBody(s.serviceId, at(3, "11:00"))),
      customerId: null,
    });
    expect(late).toMatchObject({ ok: false, refusal: { code: "service_changed" } });
    const res = await postBooking(s.apiKey, bookingBody(s.serviceId, at(3, "11:00")));
    await problem(res, 409, "slot_unavailable");
  });

  it("creates keep working after a change: the calendar learns the new version from them too", async () => {
    const s = await setup();
    expect((await patchService(s.apiKey, s.serviceId, { name: "Renamed" })).status).toBe(200);
    expect((await postBooking(s.apiKey, bookingBody(s.serviceId, at(3, "12:00")))).status).toBe(201);
  });

  it("every change moves the ETag, also for concurrent changes in the same millisecond", async () => {
    const s = await setup();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => patchService(s.apiKey, s.serviceId, { name: `Name ${i}` })),
    );
    const tags = answers.map((r) => r.headers.get("ETag"));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(tags).size).toBe(6);
    const current = await api("GET", `/services/${s.serviceId}`, { key: s.apiKey });
    expect(tags).toContain(current.headers.get("ETag"));
    expect((await json(current)).name).toMatch(/^Name \d$/);
  });
});
