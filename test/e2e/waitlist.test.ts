/**
 * Waitlist (`/waitlist`): customers queue for a full slot, the first in line is offered a hold
 * when a seat frees, and books it; through the typed client against `npm run dev`, every answer
 * checked against the document. The file fills slots of one fresh service of capacity 1, open
 * around the clock in UTC; each test has its own day (30 to 32 ahead), so no two share a slot.
 * Every request goes with the demo business's second key (`secondApi`, issued by
 * global-setup.ts), whose write budget this file shares with the visits and series files.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  bookingBody,
  createBooking,
  createOpenService,
  expectProblem,
  origin,
  plusMinutes,
  raw,
  type Schemas,
  type Service,
  secondApi,
  secondApiKey,
  unique,
  utcAt,
} from "./support";

type JoinWaitlist = Schemas["JoinWaitlist"];
type WaitlistEntry = Schemas["WaitlistEntry"];

/** A join body for `service`'s slot at `startTime`, lasting the service's duration. */
function joinBody(service: Service, startTime: string, overrides: Partial<JoinWaitlist> = {}): JoinWaitlist {
  return {
    serviceId: service.id,
    startTime,
    endTime: plusMinutes(startTime, service.durationMinutes),
    customerName: "Rosa Parks",
    customerEmail: `${unique("rosa")}@example.com`,
    ...overrides,
  };
}

/** Queues for the slot (must be 201); answers the entry. */
async function join(body: JoinWaitlist): Promise<WaitlistEntry> {
  const { data, error, response } = await secondApi.POST("/waitlist", { body });
  expect(error, JSON.stringify(error)).toBeUndefined();
  expect(response.status).toBe(201);
  return data as WaitlistEntry;
}

/** The entry as the API shows it now (must be 200). */
async function entry(id: string): Promise<WaitlistEntry> {
  const { data, error, response } = await secondApi.GET("/waitlist/{id}", { params: { path: { id } } });
  expect(error, JSON.stringify(error)).toBeUndefined();
  expect(response.status).toBe(200);
  return data as WaitlistEntry;
}

/** The service's entries (optionally of one status), in queue order: every page, two at a time by cursor. */
async function listed(service: Service, status?: WaitlistEntry["status"]): Promise<WaitlistEntry[]> {
  const entries: WaitlistEntry[] = [];
  let total = 0;
  let after: string | undefined;
  do {
    const { data, error, response } = await secondApi.GET("/waitlist", {
      params: { query: { serviceId: service.id, status, limit: 2, after } },
    });
    expect(error, JSON.stringify(error)).toBeUndefined();
    expect(response.status).toBe(200);
    entries.push(...(data?.data ?? []));
    total = data?.pagination.total ?? -1;
    after = data?.pagination.nextCursor ?? undefined;
  } while (after);
  expect(entries).toHaveLength(total);
  return entries;
}

/** The live slot of `service` at `startTime`, as the availability shows it. */
async function slotAt(service: Service, startTime: string) {
  const { data } = await secondApi.GET("/services/{id}/availability", {
    params: {
      path: { id: service.id },
      query: { from: startTime, to: plusMinutes(startTime, service.slotIntervalMinutes) },
    },
  });
  return data?.slots.find((s) => s.startTime === startTime);
}

let service: Service;
beforeAll(async () => {
  service = await createOpenService({ name: unique("E2E waitlist"), capacity: 1 }, secondApi);
});

describe("POST /waitlist → cancel → offer → POST /bookings {holdId}", () => {
  it("queues two for a full slot (positions 1, 2); a cancel offers the first a hold, the second moves up; booking the hold makes the first BOOKED", async () => {
    const startTime = utcAt(30, 10);
    const taken = await createBooking(bookingBody(service, startTime), secondApi);
    expect((await slotAt(service, startTime))?.bookable).toBe(false);

    // Join: 201 WAITING at position 1, Location at the entry.
    const body = joinBody(service, startTime);
    const { data, error, response } = await secondApi.POST("/waitlist", { body });
    expect(error, JSON.stringify(error)).toBeUndefined();
    expect(response.status).toBe(201);
    const first = data as WaitlistEntry;
    expect(first.id).toMatch(/^wtl_[0-9a-z]{26}$/);
    expect(response.headers.get("location")).toBe(`/api/v1/waitlist/${first.id}`);
    expect(first).toEqual({
      id: first.id,
      serviceId: service.id,
      providerId: null,
      startTime,
      endTime: plusMinutes(startTime, 30),
      customerName: body.customerName,
      customerEmail: body.customerEmail,
      status: "WAITING",
      position: 1,
      holdId: null,
      bookingId: null,
      createdAt: first.createdAt,
      updatedAt: first.updatedAt,
    });
    expect(Date.parse(first.createdAt)).not.toBeNaN();
    // Read back: by id and at its Location.
    expect(await entry(first.id)).toEqual(first);
    const located = await raw("GET", "/waitlist/{id}", { params: { id: first.id }, key: secondApiKey });
    expect(located.status).toBe(200);
    expect(located.url).toBe(new URL(response.headers.get("location") ?? "", origin).href);
    expect(await located.json()).toEqual(first);

    const second = await join(joinBody(service, startTime));
    expect(second).toMatchObject({ status: "WAITING", position: 2, holdId: null, bookingId: null });
    expect((await listed(service)).map((e) => e.id)).toEqual([first.id, second.id]);

    // A seat frees: the first in line is offered a hold of it, the second is next.
    const cancelled = await secondApi.POST("/bookings/{id}/cancel", {
      params: { path: { id: taken.id } },
      body: { reason: "Something came up." },
    });
    expect(cancelled.error, JSON.stringify(cancelled.error)).toBeUndefined();
    expect(cancelled.response.status).toBe(200);
    const offered = await entry(first.id);
    expect(offered).toMatchObject({ id: first.id, status: "OFFERED", position: null, bookingId: null });
    expect(offered.holdId).toMatch(/^hld_[0-9a-z]{26}$/);
    expect(await entry(second.id)).toMatchObject({ status: "WAITING", position: 1, holdId: null });
    const hold = await secondApi.GET("/holds/{id}", { params: { path: { id: offered.holdId ?? "" } } });
    expect(hold.response.status).toBe(200);
    expect(hold.data).toMatchObject({
      id: offered.holdId,
      serviceId: service.id,
      startTime,
      endTime: plusMinutes(startTime, 30),
      status: "HELD",
    });
    // 15 minutes to book it.
    const ttl = Date.parse(hold.data?.expiresAt ?? "") - Date.parse(hold.data?.createdAt ?? "");
    expect(ttl).toBeGreaterThanOrEqual(15 * 60_000 - 1_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000 + 1_000);
    // The seat is kept for the offer: the slot stays full.
    expect((await slotAt(service, startTime))?.bookable).toBe(false);

    // Booking the hold: the booking of the slot, and the entry BOOKED with its id.
    const booking = await createBooking(
      { holdId: offered.holdId ?? "", customerName: body.customerName, customerEmail: body.customerEmail },
      secondApi,
    );
    expect(booking).toMatchObject({
      serviceId: service.id,
      startTime,
      endTime: plusMinutes(startTime, 30),
      status: "CONFIRMED",
      customerEmail: body.customerEmail,
    });
    const booked = await entry(first.id);
    expect(booked).toMatchObject({ status: "BOOKED", bookingId: booking.id, position: null });
    expect(await entry(second.id)).toMatchObject({ status: "WAITING", position: 1 });
    expect((await slotAt(service, startTime))?.bookable).toBe(false);
  });

  it("is 409 slot_available for a slot with a free seat; nothing is queued", async () => {
    const startTime = utcAt(31, 9);
    const { error, response } = await secondApi.POST("/waitlist", { body: joinBody(service, startTime) });
    expectProblem(response, error, 409, "slot_available", "/api/v1/waitlist");
    expect((await listed(service)).filter((e) => e.startTime === startTime)).toEqual([]);
    expect((await slotAt(service, startTime))?.bookable).toBe(true);
  });
});

describe("GET /waitlist, DELETE /waitlist/{id}", () => {
  it("lists the service's entries in queue order, narrowed by status; DELETE is 204 and the entry stays readable as CANCELLED", async () => {
    const startTime = utcAt(32, 14);
    await createBooking(bookingBody(service, startTime), secondApi);
    const first = await join(joinBody(service, startTime));
    const second = await join(joinBody(service, startTime));
    const third = await join(joinBody(service, startTime));
    const mine = (entries: WaitlistEntry[]) => entries.filter((e) => e.startTime === startTime);

    expect(mine(await listed(service)).map((e) => [e.id, e.position])).toEqual([
      [first.id, 1],
      [second.id, 2],
      [third.id, 3],
    ]);

    const { response } = await secondApi.DELETE("/waitlist/{id}", { params: { path: { id: second.id } } });
    expect(response.status).toBe(204);
    expect(await entry(second.id)).toMatchObject({ id: second.id, status: "CANCELLED", position: null });
    expect(await entry(third.id)).toMatchObject({ status: "WAITING", position: 2 });

    // The status filter: the WAITING ones (the first test's second entry among them), the CANCELLED one.
    const waiting = await listed(service, "WAITING");
    expect(waiting.every((e) => e.status === "WAITING")).toBe(true);
    expect(mine(waiting).map((e) => [e.id, e.position])).toEqual([
      [first.id, 1],
      [third.id, 2],
    ]);
    expect((await listed(service, "CANCELLED")).map((e) => e.id)).toEqual([second.id]);
    expect((await listed(service, "BOOKED")).every((e) => e.status === "BOOKED")).toBe(true);
    expect(mine(await listed(service, "OFFERED"))).toEqual([]);
    // All of them, still in queue order.
    expect(mine(await listed(service)).map((e) => e.id)).toEqual([first.id, second.id, third.id]);
    // limit bounds the page.
    const one = await secondApi.GET("/waitlist", { params: { query: { serviceId: service.id, limit: 1 } } });
    expect(one.data?.data).toHaveLength(1);

    // Again: still 204, and nothing changes.
    const again = await secondApi.DELETE("/waitlist/{id}", { params: { path: { id: second.id } } });
    expect(again.response.status).toBe(204);
    expect((await entry(second.id)).status).toBe("CANCELLED");
  });

  it("GET /waitlist/{id} is 404 for an id the business does not have", async () => {
    const id = "wtl_00000000000000000000000000";
    const { error, response } = await secondApi.GET("/waitlist/{id}", { params: { path: { id } } });
    expectProblem(response, error, 404, "not_found", `/api/v1/waitlist/${id}`);
  });

  it("GET /waitlist without serviceId is 422 at serviceId", async () => {
    const response = await raw("GET", "/waitlist", { key: secondApiKey });
    const problem = expectProblem(response, await response.json(), 422, "validation_failed", "/api/v1/waitlist");
    expect(problem.errors?.map((e) => e.path)).toEqual(["serviceId"]);
  });
});
