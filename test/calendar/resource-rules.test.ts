/**
 * A resource's rule as a pure function (rule 8): active, open then, a unit free. Open then means
 * its own hours when it has them; without them, whenever a service using it is — except on the
 * dates its overrides name, which keep it to their intervals (`[]` closes the day).
 */
import { describe, expect, it } from "vitest";
import type { ResourceSnapshot } from "../../src/calendar/claim-types";
import { checkResourceFree } from "../../src/calendar/rules/resource-rules";
import { at, everyDay } from "./fixtures";

const room = (fields: Partial<ResourceSnapshot> = {}): ResourceSnapshot => ({
  id: "res_1",
  businessId: "biz_1",
  version: 1,
  active: true,
  quantity: 1,
  timezone: "UTC",
  weeklySchedule: null,
  dateOverrides: [],
  ...fields,
});

/** The rule for `[start, end)` with no other claim on the room. */
const check = (resource: ResourceSnapshot, start: string, end: string) =>
  checkResourceFree(resource, { session: "s", start: at(start), end: at(end) }, []);

/** A closed resource can be granted to nobody (`onlyWith` empty: the entry tries no one else). */
const closed = {
  ok: false,
  reason: "resource_unavailable",
  detail: "The resource is closed at that time.",
  onlyWith: [],
};

describe("a resource without hours of its own", () => {
  it("is open at any time while no override names the date", () => {
    expect(check(room(), "2026-06-01T03:00:00Z", "2026-06-01T04:00:00Z")).toBeNull();
    expect(check(room(), "2026-06-01T23:30:00Z", "2026-06-02T00:30:00Z")).toBeNull();
  });

  it("is closed all day on a date whose override is []; open the day before and after", () => {
    const resource = room({ dateOverrides: [{ date: "2026-06-02", intervals: [] }] });
    expect(check(resource, "2026-06-02T10:00:00Z", "2026-06-02T11:00:00Z")).toEqual(closed);
    expect(check(resource, "2026-06-02T00:00:00Z", "2026-06-02T00:30:00Z")).toEqual(closed);
    expect(check(resource, "2026-06-01T10:00:00Z", "2026-06-01T11:00:00Z")).toBeNull();
    expect(check(resource, "2026-06-03T10:00:00Z", "2026-06-03T11:00:00Z")).toBeNull();
    // Up to the closed day's midnight is open; running into it is not.
    expect(check(resource, "2026-06-01T23:00:00Z", "2026-06-02T00:00:00Z")).toBeNull();
    expect(check(resource, "2026-06-01T23:30:00Z", "2026-06-02T00:30:00Z")).toEqual(closed);
  });

  it("keeps to an override's intervals that day, and only that day", () => {
    const resource = room({ dateOverrides: [{ date: "2026-06-02", intervals: [{ start: "10:00", end: "12:00" }] }] });
    expect(check(resource, "2026-06-02T10:00:00Z", "2026-06-02T12:00:00Z")).toBeNull();
    expect(check(resource, "2026-06-02T11:30:00Z", "2026-06-02T12:30:00Z")).toEqual(closed);
    expect(check(resource, "2026-06-02T14:00:00Z", "2026-06-02T15:00:00Z")).toEqual(closed);
    expect(check(resource, "2026-06-03T14:00:00Z", "2026-06-03T15:00:00Z")).toBeNull();
  });

  it("reads the override's date in the resource's own time zone", () => {
    // 2026-06-01T22:30Z is already 2 June in Berlin (UTC+2), and 1 June in New York.
    const closedDay = { dateOverrides: [{ date: "2026-06-02", intervals: [] }] };
    const berlin = room({ timezone: "Europe/Berlin", ...closedDay });
    const newYork = room({ timezone: "America/New_York", ...closedDay });
    expect(check(berlin, "2026-06-01T22:30:00Z", "2026-06-01T23:30:00Z")).toEqual(closed);
    expect(check(newYork, "2026-06-01T22:30:00Z", "2026-06-01T23:30:00Z")).toBeNull();
  });

  it("still counts units first for an open time, and refuses an inactive room whatever the date", () => {
    const resource = room({ dateOverrides: [{ date: "2026-06-02", intervals: [] }] });
    const taken = checkResourceFree(
      resource,
      { session: "s", start: at("2026-06-03T10:00:00Z"), end: at("2026-06-03T11:00:00Z") },
      [{ session: "other" }],
    );
    expect(taken).toMatchObject({ reason: "resource_unavailable", detail: "Its unit is taken at that time." });
    expect(check(room({ active: false }), "2026-06-03T10:00:00Z", "2026-06-03T11:00:00Z")).toMatchObject({
      detail: "The resource is not active.",
    });
  });
});

describe("a resource with hours of its own", () => {
  it("keeps to them, and an override replaces them that day", () => {
    const resource = room({
      weeklySchedule: everyDay({ start: "09:00", end: "17:00" }),
      dateOverrides: [{ date: "2026-06-02", intervals: [] }],
    });
    expect(check(resource, "2026-06-01T10:00:00Z", "2026-06-01T11:00:00Z")).toBeNull();
    expect(check(resource, "2026-06-01T18:00:00Z", "2026-06-01T19:00:00Z")).toEqual(closed);
    expect(check(resource, "2026-06-02T10:00:00Z", "2026-06-02T11:00:00Z")).toEqual(closed);
  });
});
