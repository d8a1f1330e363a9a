/**
 * Limits against what a calendar keeps (docs/api-behaviour.md, "Booking limits and assignment"):
 * the nightly prune drops bookings that ended long ago, and a week's limit must still count the
 * ones that began earlier in that week.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { nightly } from "../../src/maintenance";
import { createAccount, createService } from "../support/api";
import { allDay } from "../support/bookings";
import { bookAt, outcome } from "./fixtures";

afterEach(() => {
  vi.useRealTimers();
});

describe("a limit per week after the nightly prune", () => {
  it("still counts the week's bookings that ended days ago", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { weeklySchedule: allDay, limits: { perWeek: 2 } });
    // The ISO week of Monday 2027-06-07 (UTC, the service's zone): Tuesday and Saturday fill it.
    expect(await outcome(await bookAt(apiKey, service.id, "2027-06-08T08:00:00Z"))).toBe("201");
    expect(await outcome(await bookAt(apiKey, service.id, "2027-06-12T08:00:00Z"))).toBe("201");

    // Saturday noon of that week: Tuesday's booking ended four days ago.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2027-06-12T12:00:00Z"));
    expect(await outcome(await bookAt(apiKey, service.id, "2027-06-13T10:00:00Z")), "before the prune").toBe(
      "409 limit_reached",
    );
    await nightly(env);
    expect(await outcome(await bookAt(apiKey, service.id, "2027-06-13T11:00:00Z")), "after the prune").toBe(
      "409 limit_reached",
    );
  });
});
