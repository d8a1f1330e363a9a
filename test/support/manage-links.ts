/** Manage links in tests: a service with policy windows, a booking's link, and calls without a key. */
import { expect } from "vitest";
import { api, createAccount, createService, origin } from "./api";
import { allDay, book, bookingBody } from "./bookings";

const MINUTE = 60_000;

/** A minute-aligned instant `minutes` from now. */
export const minutesFromNow = (minutes: number) =>
  new Date(Math.ceil((Date.now() + minutes * MINUTE) / MINUTE) * MINUTE).toISOString();

/**
 * A business with a 30-minute service bookable any minute around the clock and the given policy
 * windows (`cancellationNoticeMinutes`, `rescheduleNoticeMinutes`).
 */
export async function clinic(policy: Record<string, unknown> = {}) {
  const account = await createAccount("Clinic");
  const service = await createService(account.apiKey, {
    name: "Check-up",
    durationMinutes: 30,
    slotIntervalMinutes: 1,
    capacity: 1,
    weeklySchedule: allDay,
    ...policy,
  });
  return { ...account, serviceId: service.id as string };
}

/** Books the clinic's service at `startTime`; answers the booking and its link's path under /api/v1. */
export async function bookWithLink(key: string, serviceId: string, startTime: string, extra = {}) {
  const booking = await book(key, bookingBody(serviceId, startTime, extra));
  return { booking, path: linkPath(booking.manageUrl) };
}

/** The path under /api/v1 of a manage URL (which must be one). */
export function linkPath(manageUrl: unknown): string {
  expect(manageUrl).toMatch(new RegExp(`^${origin}/api/v1/manage/bkg_[0-9a-z]{26}\\.[A-Za-z0-9_-]{43}$`));
  return (manageUrl as string).slice(`${origin}/api/v1`.length);
}

/** A call of a public manage-link path, without a key, from `address`. */
export const viaLink = (method: string, path: string, body?: unknown, address = "198.51.100.7") =>
  api(method, path, { key: null, body, headers: { "CF-Connecting-IP": address } });
