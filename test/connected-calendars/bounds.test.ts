/**
 * Bounds and concurrency of connected calendars: 20 concurrent bookings around a busy time book the
 * one free slot exactly once; 20 concurrent bookings (or holds) of a busy time are all refused
 * for the busy person, not as fully booked by a sibling's passing seat; 5 calendars per person, held under a concurrent burst; the events
 * of one read (narrowed here to reach the bound with a few events) and the size of an answer read.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { readBounded } from "../../src/calendar/connected/http";
import type { ProviderCalendar } from "../../src/calendar/provider/provider-calendar";
import { json, problem } from "../support/api";
import { at, bookingBody, postBooking, statusCounts } from "../support/bookings";
import {
  connect,
  localApi,
  newCollection,
  providerStub,
  putEvent,
  syncNow,
  vcalendar,
  vevent,
} from "../support/connected-calendars";
import { placeHold, salon } from "../support/fixtures";
import type { ProviderCalendar as TestProviderCalendar } from "../support/worker";

describe("concurrency", () => {
  it("20 concurrent bookings around a busy time: exactly the free slot is booked, once", async () => {
    // One person, 10:00–11:30 of day 3 only three half-hour slots; the calendar is busy 10:00–10:30 and 11:00–11:30.
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    await putEvent(collection, "a", vcalendar(vevent("a", at(3, "10:00"), at(3, "10:30"))));
    await putEvent(collection, "b", vcalendar(vevent("b", at(3, "11:00"), at(3, "11:30"))));
    await connect(s.apiKey, person, { url: collection });
    const starts = [at(3, "10:00"), at(3, "10:30"), at(3, "11:00")];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        postBooking(s.apiKey, bookingBody(i % 2 ? s.cut : s.colour, starts[i % 3] as string)),
      ),
    );
    expect(statusCounts(answers)).toEqual({ 201: 1, 409: 19 });
    const booked = await json(answers.find((r) => r.status === 201) as Response);
    expect(booked.startTime).toBe(new Date(at(3, "10:30")).toISOString());
  });

  it("20 concurrent bookings of a busy person's time are each refused as provider_busy, none as fully_booked", async () => {
    // Nothing is booked at 10:00: a sibling's seat, held a moment while its claim was refused, is no reason.
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    await putEvent(collection, "a", vcalendar(vevent("a", at(3, "10:00"), at(3, "11:00"))));
    await connect(s.apiKey, person, { url: collection });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        postBooking(s.apiKey, bookingBody(s.cut, at(3, "10:00"), { providerId: person })),
      ),
    );
    expect(statusCounts(answers)).toEqual({ 409: 20 });
    const reasons = await Promise.all(answers.map(async (r) => (await json(r)).reason));
    expect(reasons).toEqual(Array(20).fill("provider_busy"));
  });

  it("20 concurrent holds of a busy person's time are each refused as provider_busy", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    await putEvent(collection, "a", vcalendar(vevent("a", at(3, "10:00"), at(3, "11:00"))));
    await connect(s.apiKey, person, { url: collection });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => placeHold(s.apiKey, s.cut, at(3, "10:00"), { providerId: person })),
    );
    expect(statusCounts(answers)).toEqual({ 409: 20 });
    const reasons = await Promise.all(answers.map(async (r) => (await json(r)).reason));
    expect(reasons).toEqual(Array(20).fill("provider_busy"));
  });
});

describe("bounds", () => {
  it("a person has at most 5 calendars, even under a burst of 8 concurrent connects", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        localApi("POST", `/providers/${person}/calendars`, s.apiKey, { url: collection }),
      ),
    );
    expect(statusCounts(answers)).toEqual({ 201: 5, 409: 3 });
    await problem(answers.find((r) => r.status === 409) as Response, 409, "calendar_limit");
    const listed = await json(await localApi("GET", `/providers/${person}/calendars`, s.apiKey));
    expect(listed.data).toHaveLength(5);
  });

  it("a read over the events bound fails, clearly, and keeps the busy times it had", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    await putEvent(collection, "a", vcalendar(vevent("a", at(3, "10:00"), at(3, "10:30"))));
    const calendar = await connect(s.apiKey, person, { url: collection });
    await runInDurableObject(providerStub(s.businessId, person), (instance: ProviderCalendar) => {
      (instance as TestProviderCalendar).faults.limits = { maxEvents: 2 };
    });
    await putEvent(collection, "b", vcalendar(vevent("b", at(3, "12:00"), at(3, "12:30"))));
    await putEvent(collection, "c", vcalendar(vevent("c", at(3, "14:00"), at(3, "14:30"))));
    const read = await syncNow(s.apiKey, person, calendar.id);
    expect(read.syncStatus).toBe("failing");
    expect(read.lastError).toMatch(/more than 2 events/);
    const busy = await problem(
      await postBooking(s.apiKey, bookingBody(s.cut, at(3, "10:00"), { providerId: person })),
      409,
      "slot_unavailable",
    );
    expect(busy.reason).toBe("provider_busy");
    // Within the bound again, the read succeeds.
    await runInDurableObject(providerStub(s.businessId, person), (instance: ProviderCalendar) => {
      (instance as TestProviderCalendar).faults.limits = { maxEvents: 3 };
    });
    expect((await syncNow(s.apiKey, person, calendar.id)).syncStatus).toBe("ok");
    // A recurring event giving more busy times than the bound is refused as a whole read.
    await putEvent(collection, "d", vcalendar(vevent("d", at(4, "09:00"), at(4, "09:15"), "RRULE:FREQ=DAILY;COUNT=5")));
    await runInDurableObject(providerStub(s.businessId, person), (instance: ProviderCalendar) => {
      (instance as TestProviderCalendar).faults.limits = { maxEvents: 4 };
    });
    const over = await syncNow(s.apiKey, person, calendar.id);
    expect(over.syncStatus).toBe("failing");
    expect(over.lastError).toMatch(/more than 4 busy times/);
  });

  it("stored busy times stay within the window: those it left are pruned at the next read", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    await putEvent(collection, "soon", vcalendar(vevent("soon", at(3, "10:00"), at(3, "11:00"))));
    await putEvent(collection, "later", vcalendar(vevent("later", at(60, "10:00"), at(60, "11:00"))));
    const calendar = await connect(s.apiKey, person, { url: collection });
    const stored = () =>
      runInDurableObject(providerStub(s.businessId, person), (_instance, state) =>
        state.storage.sql.exec<{ start_ms: number }>("SELECT start_ms FROM busy ORDER BY start_ms").toArray(),
      );
    const [soon, later] = [Date.parse(at(3, "10:00")), Date.parse(at(60, "10:00"))];
    expect((await stored()).map((r) => r.start_ms)).toEqual([soon, later]);
    // 40 days on: the first event is older than the 30 days the window keeps.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 40 * 86_400_000);
      expect((await syncNow(s.apiKey, person, calendar.id)).syncStatus).toBe("ok");
      expect((await stored()).map((r) => r.start_ms)).toEqual([later]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("an answer is read as a stream and given up past the size bound", async () => {
    const chunk = new Uint8Array(64 * 1024).fill(65);
    const body = (chunks: number) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < chunks; i++) controller.enqueue(chunk);
          controller.close();
        },
      });
    expect((await readBounded(body(2), 256 * 1024)).length).toBe(128 * 1024);
    await expect(readBounded(body(5), 256 * 1024)).rejects.toThrow(/larger than/);
  });
});
