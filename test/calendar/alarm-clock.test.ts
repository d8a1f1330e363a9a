import { describe, expect, it } from "vitest";
import { retryDelayMs } from "../../src/calendar/alarm-clock";

describe("retryDelayMs", () => {
  it("doubles from 1 s: 1 s, 2 s, 4 s, 8 s …", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map(retryDelayMs)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000,
    ]);
  });

  it("caps at 300 s", () => {
    expect(retryDelayMs(10)).toBe(300_000); // 512 s uncapped
    expect(retryDelayMs(20)).toBe(300_000);
    expect(retryDelayMs(1_000)).toBe(300_000);
  });

  it("treats attempt 0 (or less) as the first attempt", () => {
    expect(retryDelayMs(0)).toBe(1_000);
    expect(retryDelayMs(-3)).toBe(1_000);
  });
});
