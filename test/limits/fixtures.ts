/**
 * Helpers of the booking-limit tests (not a test file): bookings at exact instants, refusals'
 * reasons, and slots read around one instant.
 */
import { expect } from "vitest";
import { api, json, problem } from "../support/api";
import { availability, bookingBody, plus, postBooking } from "../support/bookings";

/** A 30-minute booking at `start` (a UTC instant), with `extra` body fields. */
export const bookAt = (key: string, serviceId: string, start: string, extra: Record<string, unknown> = {}) =>
  postBooking(key, bookingBody(serviceId, start, extra));

/** The status of a booking attempt, and its reason when it is a 409. */
export async function outcome(res: Response): Promise<string> {
  if (res.status === 201) return "201";
  const body = await res.json();
  return `${res.status} ${(body as { reason?: string }).reason ?? (body as { code?: string }).code}`;
}

/** Asserts a 409 slot_unavailable with reason limit_reached. */
export async function expectLimit(res: Response) {
  expect((await problem(res, 409, "slot_unavailable")).reason).toBe("limit_reached");
}

/** The slot starting at `start` (read over one minute), as the API lists it. */
export async function slotAt(key: string, serviceId: string, start: string, query = "") {
  const res = await api("GET", `/services/${serviceId}/availability?from=${start}&to=${plus(start, 1)}${query}`, {
    key,
  });
  expect(res.status).toBe(200);
  const { slots } = await json(res);
  return (slots as { startTime: string; bookable: boolean; reason?: string; providers?: string[] }[]).find(
    (s) => Date.parse(s.startTime) === Date.parse(start),
  );
}

/** Every slot of `[from, to)`. */
export const slotsOf = async (key: string, serviceId: string, from: string, to: string) =>
  (await availability(key, serviceId, from, to)).slots as {
    startTime: string;
    bookable: boolean;
    reason?: string;
    providers?: string[];
  }[];
