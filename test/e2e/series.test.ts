/**
 * Series (`/series`): one service on every occurrence of a rule, booked all or none (`reject`) or
 * the free ones (`skip`), read back and cancelled from an occurrence on, through the typed client
 * against `npm run dev`, every answer checked against the document. The file books one fresh
 * service open around the clock in UTC; each test has its own weeks (days 20 to 221 ahead), so no
 * two of them share a slot. Every request goes with the demo business's second key (`secondApi`,
 * issued by global-setup.ts), whose write budget this file shares only with the visits file.
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

type CreateSeries = Schemas["CreateSeries"];
type Series = Schemas["Series"];

/** A series body for `service`, its first occurrence at `startTime`, lasting the service's duration. */
function seriesBody(
  service: Service,
  startTime: string,
  recurrence: string,
  overrides: Partial<CreateSeries> = {},
): CreateSeries {
  return {
    serviceId: service.id,
    customerName: "Frida Kahlo",
    customerEmail: `${unique("frida")}@example.com`,
    startTime,
    endTime: plusMinutes(startTime, service.durationMinutes),
    recurrence,
    ...overrides,
  };
}

/** The start of the occurrence `weeks` weeks after the one `days` days ahead at hh:mm UTC. */
const weekly = (days: number, weeks: number, hour: number, minute = 0) => utcAt(days + 7 * weeks, hour, minute);

/** Whether `service`'s slot at `startTime` can still be booked. */
async function bookableAt(service: Service, startTime: string): Promise<boolean | undefined> {
  const { data } = await secondApi.GET("/services/{id}/availability", {
    params: {
      path: { id: service.id },
      query: { from: startTime, to: plusMinutes(startTime, service.slotIntervalMinutes) },
    },
  });
  return data?.slots.find((s) => s.startTime === startTime)?.bookable;
}

/** The ids of the service's bookings starting in [from, to), by start. */
async function bookingsBetween(service: Service, from: string, to: string): Promise<string[]> {
  const { data, response } = await secondApi.GET("/bookings", {
    params: { query: { serviceId: service.id, from, to, limit: 100 } },
  });
  expect(response.status).toBe(200);
  return (data?.data ?? [])
    .slice()
    .sort((a, b) => a.startTime.localeCompare(b.startTime))
    .map((b) => b.id);
}

async function createSeries(body: CreateSeries): Promise<Series> {
  const { data, error, response } = await secondApi.POST("/series", { body });
  expect(error, JSON.stringify(error)).toBeUndefined();
  expect(response.status).toBe(201);
  return data as Series;
}

let service: Service;
beforeAll(async () => {
  service = await createOpenService({ name: unique("E2E series") }, secondApi);
});

describe("POST /series → GET /series/{id}", () => {
  it("books four weekly occurrences: 201, Location, each a booking with seriesId, a week apart at the same UTC time", async () => {
    const startTime = utcAt(20, 10);
    const body = seriesBody(service, startTime, "FREQ=WEEKLY;COUNT=4", { notes: "Knee, after surgery." });
    const { data, error, response } = await secondApi.POST("/series", { body });
    expect(error, JSON.stringify(error)).toBeUndefined();
    expect(response.status).toBe(201);
    const series = data as Series;
    expect(series.id).toMatch(/^ser_[0-9a-z]{26}$/);
    expect(response.headers.get("location")).toBe(`/api/v1/series/${series.id}`);
    expect(series).toMatchObject({ serviceId: service.id, recurrence: "FREQ=WEEKLY;COUNT=4", skipped: [] });

    expect(series.bookings).toHaveLength(4);
    expect(series.bookings.map((b) => b.startTime)).toEqual([0, 1, 2, 3].map((w) => weekly(20, w, 10)));
    for (const [week, booking] of series.bookings.entries()) {
      expect(booking).toMatchObject({
        seriesId: series.id,
        appointmentId: null,
        serviceId: service.id,
        status: "CONFIRMED",
        endTime: weekly(20, week, 10, 30),
        customerName: body.customerName,
        customerEmail: body.customerEmail,
        notes: "Knee, after surgery.",
      });
      expect(booking.customerId).toBe(series.bookings[0]?.customerId);
    }
    expect(new Set(series.bookings.map((b) => b.id)).size).toBe(4);

    // Read back: by id, at its Location, and each occurrence as a booking of its own.
    const read = await secondApi.GET("/series/{id}", { params: { path: { id: series.id } } });
    expect(read.response.status).toBe(200);
    expect(read.data).toEqual(series);
    const located = await raw("GET", "/series/{id}", { params: { id: series.id }, key: secondApiKey });
    expect(located.url).toBe(new URL(response.headers.get("location") ?? "", origin).href);
    expect(await located.json()).toEqual(series);
    const third = series.bookings[2];
    const occurrence = await secondApi.GET("/bookings/{id}", { params: { path: { id: third?.id ?? "" } } });
    expect(occurrence.data).toEqual(third);
    expect(await bookingsBetween(service, utcAt(20, 0), utcAt(42, 0))).toEqual(series.bookings.map((b) => b.id));
    // Every occurrence holds its seat (capacity 1).
    for (const week of [0, 1, 2, 3]) expect(await bookableAt(service, weekly(20, week, 10))).toBe(false);
  });

  it("is not found for an id the business does not have", async () => {
    const { error, response } = await secondApi.GET("/series/{id}", {
      params: { path: { id: "ser_00000000000000000000000000" } },
    });
    expectProblem(response, error, 404, "not_found", "/api/v1/series/ser_00000000000000000000000000");
  });
});

describe("POST /series with occurrences taken", () => {
  it("skip: 201 with the three free occurrences booked and the taken one listed in skipped", async () => {
    const startTime = utcAt(60, 11);
    const taken = await createBooking(bookingBody(service, weekly(60, 1, 11)), secondApi);
    const series = await createSeries(seriesBody(service, startTime, "FREQ=WEEKLY;COUNT=4", { onConflict: "skip" }));
    expect(series.bookings.map((b) => b.startTime)).toEqual([0, 2, 3].map((w) => weekly(60, w, 11)));
    for (const booking of series.bookings) {
      expect(booking).toMatchObject({ seriesId: series.id, serviceId: service.id, status: "CONFIRMED" });
    }
    expect(series.skipped).toEqual([
      { startTime: weekly(60, 1, 11), endTime: weekly(60, 1, 11, 30), reason: "fully_booked" },
    ]);
    const read = await secondApi.GET("/series/{id}", { params: { path: { id: series.id } } });
    expect(read.data).toEqual(series);
    // The single booking in week 2 is untouched and is no occurrence of the series.
    const single = await secondApi.GET("/bookings/{id}", { params: { path: { id: taken.id } } });
    expect(single.data).toMatchObject({ id: taken.id, status: "CONFIRMED", seriesId: null });
    const [first, second, third] = series.bookings.map((b) => b.id);
    expect(await bookingsBetween(service, utcAt(60, 0), utcAt(82, 0))).toEqual([first, taken.id, second, third]);
  });

  it("reject (the default): 409 slot_unavailable listing both taken occurrences; nothing of the series is booked", async () => {
    const startTime = utcAt(100, 12);
    const taken = [
      await createBooking(bookingBody(service, weekly(100, 1, 12)), secondApi),
      await createBooking(bookingBody(service, weekly(100, 3, 12)), secondApi),
    ];
    const { error, response } = await secondApi.POST("/series", {
      body: seriesBody(service, startTime, "FREQ=WEEKLY;COUNT=4"),
    });
    const problem = expectProblem(response, error, 409, "slot_unavailable", "/api/v1/series");
    expect(problem.reason).toBe("fully_booked");
    expect(problem.conflicts).toEqual([
      { startTime: weekly(100, 1, 12), reason: "fully_booked" },
      { startTime: weekly(100, 3, 12), reason: "fully_booked" },
    ]);
    // All or none: the free weeks are still free, and the service has only the two single bookings.
    expect(await bookableAt(service, startTime)).toBe(true);
    expect(await bookableAt(service, weekly(100, 2, 12))).toBe(true);
    expect(await bookingsBetween(service, utcAt(100, 0), utcAt(122, 0))).toEqual(taken.map((b) => b.id));
  });
});

describe("POST /series refused", () => {
  it("422 at recurrence for a rule the API does not take (FREQ=YEARLY); nothing booked", async () => {
    const { error, response } = await secondApi.POST("/series", {
      body: seriesBody(service, utcAt(180, 9), "FREQ=YEARLY;COUNT=2"),
    });
    const problem = expectProblem(response, error, 422, "validation_failed", "/api/v1/series");
    expect(problem.errors?.map((e) => e.path)).toEqual(["recurrence"]);
    expect(await bookingsBetween(service, utcAt(180, 0), utcAt(181, 0))).toEqual([]);
    expect(await bookableAt(service, utcAt(180, 9))).toBe(true);
  });
});

describe("POST /series/{id}/cancel", () => {
  it("from the third occurrence on: 200 with the last two CANCELLED, their seats free again; the same cancel again is 409 invalid_transition", async () => {
    const series = await createSeries(seriesBody(service, utcAt(200, 9), "FREQ=WEEKLY;COUNT=4"));
    const id = series.id;
    const cancel = { from: weekly(200, 2, 9), reason: "Recovered." };

    const { data, error, response } = await secondApi.POST("/series/{id}/cancel", {
      params: { path: { id } },
      body: cancel,
    });
    expect(error, JSON.stringify(error)).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ id, serviceId: service.id, recurrence: "FREQ=WEEKLY;COUNT=4", skipped: [] });
    expect(data?.bookings.map((b) => b.id)).toEqual(series.bookings.map((b) => b.id));
    expect(data?.bookings.map((b) => b.status)).toEqual(["CONFIRMED", "CONFIRMED", "CANCELLED", "CANCELLED"]);
    expect(data?.bookings.slice(0, 2)).toEqual(series.bookings.slice(0, 2));
    for (const booking of data?.bookings.slice(2) ?? []) {
      expect(booking).toMatchObject({ seriesId: id, status: "CANCELLED", cancellationReason: "Recovered." });
    }
    const read = await secondApi.GET("/series/{id}", { params: { path: { id } } });
    expect(read.data).toEqual(data);
    expect(await bookableAt(service, weekly(200, 1, 9))).toBe(false);
    expect(await bookableAt(service, weekly(200, 2, 9))).toBe(true);
    expect(await bookableAt(service, weekly(200, 3, 9))).toBe(true);

    const again = await secondApi.POST("/series/{id}/cancel", { params: { path: { id } }, body: cancel });
    expectProblem(again.response, again.error, 409, "invalid_transition", `/api/v1/series/${id}/cancel`);
    const after = await secondApi.GET("/series/{id}", { params: { path: { id } } });
    expect(after.data).toEqual(data);
  });

  it("is not found for an id the business does not have", async () => {
    const { error, response } = await secondApi.POST("/series/{id}/cancel", {
      params: { path: { id: "ser_00000000000000000000000000" } },
    });
    expectProblem(response, error, 404, "not_found", "/api/v1/series/ser_00000000000000000000000000/cancel");
  });
});
