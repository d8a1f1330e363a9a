/**
 * Working time that touches at local midnight is one stretch of time: a person working
 * 00:00–24:00 every day in their own zone can be booked across their midnight, and the slot
 * calendar says so too.
 */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json } from "../support/api";
import { allDay, at, bookingBody, plus, postBooking, slotAt } from "../support/bookings";

describe("a person working around the clock in Asia/Kolkata", () => {
  it("is listed and bookable for 18:00–19:00Z, which is 23:30–00:30 their time", async () => {
    const { apiKey } = await createAccount();
    const res = await api("POST", "/providers", {
      key: apiKey,
      body: { name: "Night nurse", timezone: "Asia/Kolkata", weeklySchedule: allDay },
    });
    const provider = (await json(res)).id as string;
    const day = [{ start: "08:00", end: "20:00" }];
    const service = await createService(apiKey, {
      durationMinutes: 60,
      weeklySchedule: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day },
      providerIds: [provider],
    });
    const start = at(4, "18:00");
    const slot = await slotAt(apiKey, service.id, start);
    expect(slot).toMatchObject({ bookable: true, providers: [provider], remaining: 1 });
    const booked = await postBooking(apiKey, bookingBody(service.id, start, { endTime: plus(start, 60) }));
    expect(booked.status).toBe(201);
    expect((await json(booked)).providerId).toBe(provider);
  });
});
