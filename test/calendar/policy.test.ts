/** The policy window rule at its exact edges (src/calendar/rules/policy.ts). */
import { describe, expect, it } from "vitest";
import { policyWindowRefusal } from "../../src/calendar/rules/policy";

const start = "2026-12-01T10:00:00.000Z";
const startMs = Date.parse(start);

describe("policy window", () => {
  it("allows a change until notice minutes before the start, that instant included", () => {
    const edge = startMs - 60 * 60_000;
    expect(policyWindowRefusal("cancelled", start, 60, edge - 1)).toBeUndefined();
    expect(policyWindowRefusal("cancelled", start, 60, edge)).toBeUndefined();
    expect(policyWindowRefusal("cancelled", start, 60, edge + 1)).toEqual({
      code: "policy_window",
      until: "2026-12-01T09:00:00.000Z",
      detail: "This booking could be cancelled online until 2026-12-01T09:00:00.000Z; please contact the business.",
    });
  });

  it("with no notice, a customer can change a booking until its start and not after", () => {
    expect(policyWindowRefusal("rescheduled", start, 0, startMs)).toBeUndefined();
    expect(policyWindowRefusal("rescheduled", start, 0, startMs + 1)?.until).toBe(start);
  });

  it("binds nobody without a notice (a call with an API key)", () => {
    expect(policyWindowRefusal("cancelled", start, undefined, startMs + 86_400_000)).toBeUndefined();
  });
});
