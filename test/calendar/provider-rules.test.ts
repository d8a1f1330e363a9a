/** A provider's working-time rule (rule 6) as a pure function: own hours, own zone, midnight joins. */
import { describe, expect, it } from "vitest";
import type { ProviderSnapshot } from "../../src/calendar/claim-types";
import { checkProviderWorking } from "../../src/calendar/rules/provider-rules";
import { at, everyDay } from "./fixtures";

const person = (fields: Partial<ProviderSnapshot> = {}): ProviderSnapshot => ({
  id: "prv_1",
  businessId: "biz_1",
  version: 1,
  active: true,
  timezone: "Asia/Kolkata",
  weeklySchedule: everyDay({ start: "00:00", end: "24:00" }),
  dateOverrides: [],
  ...fields,
});

describe("checkProviderWorking", () => {
  it("accepts an hour across the person's own local midnight when they work around the clock", () => {
    // 18:00–19:00Z is 23:30–00:30 in Kolkata (UTC+05:30).
    expect(checkProviderWorking(person(), at("2026-06-01T18:00:00Z"), at("2026-06-01T19:00:00Z"))).toBeNull();
  });

  it("refuses the same hour when the next day starts later than midnight", () => {
    const late = person({
      weeklySchedule: { ...everyDay({ start: "00:00", end: "24:00" }), tue: [{ start: "01:00", end: "24:00" }] },
    });
    // Monday 23:30 to Tuesday 00:30 local: Tuesday's hours begin at 01:00.
    expect(checkProviderWorking(late, at("2026-06-01T18:00:00Z"), at("2026-06-01T19:00:00Z"))).toMatchObject({
      reason: "provider_unavailable",
    });
  });

  it("joins a date override ending at 24:00 with the next day's weekly hours", () => {
    const evening = person({
      weeklySchedule: everyDay({ start: "00:00", end: "08:00" }),
      dateOverrides: [{ date: "2026-06-01", intervals: [{ start: "20:00", end: "24:00" }] }],
    });
    expect(checkProviderWorking(evening, at("2026-06-01T18:00:00Z"), at("2026-06-01T19:00:00Z"))).toBeNull();
    expect(checkProviderWorking(evening, at("2026-06-08T18:00:00Z"), at("2026-06-08T19:00:00Z"))).toMatchObject({
      reason: "provider_unavailable",
    });
  });

  it("refuses an inactive person whatever their hours", () => {
    expect(
      checkProviderWorking(person({ active: false }), at("2026-06-01T10:00:00Z"), at("2026-06-01T11:00:00Z")),
    ).toMatchObject({ reason: "provider_unavailable" });
  });
});
