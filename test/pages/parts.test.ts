/** The pages' pure parts: content negotiation, language choice, readable accents, the flow's address. */
import { describe, expect, it } from "vitest";
import { accentColours, contrast } from "../../src/pages/colour";
import { fromAcceptLanguage, pickLocale } from "../../src/pages/i18n";
import { addDays, dayKeyOf, startOfDay } from "../../src/pages/i18n/format";
import { prefersHtml } from "../../src/pages/manage/negotiate";
import { flowOf, hrefOf, isDay } from "../../src/pages/state";

const rgb = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];

describe("content negotiation of the manage link", () => {
  it("a browser's navigation prefers HTML; programs get JSON", () => {
    expect(prefersHtml("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")).toBe(true);
    expect(prefersHtml("text/html")).toBe(true);
    expect(prefersHtml("text/*;q=0.9, application/json;q=0.5")).toBe(true);
    for (const accept of [
      undefined,
      "",
      "*/*",
      "application/json",
      "application/json, text/html;q=0.5",
      "text/html;q=0",
    ])
      expect(prefersHtml(accept), String(accept)).toBe(false);
  });
});

describe("language", () => {
  it("?lang= wins, then the best of Accept-Language among en and de, then the business's", () => {
    expect(pickLocale("de", "en", "en")).toBe("de");
    expect(pickLocale(undefined, "fr-CH, de-CH;q=0.9, en;q=0.8", "en")).toBe("de");
    expect(pickLocale(undefined, "en-US,en;q=0.9,de;q=0.8", "de")).toBe("en");
    expect(pickLocale(undefined, "fr, es;q=0.5", "de")).toBe("de");
    expect(pickLocale("xx", undefined, "en")).toBe("en");
    expect(fromAcceptLanguage("de;q=0, en;q=0.1")).toBe("en");
  });
});

describe("accent colours", () => {
  it("the ink on the accent and the accent as text reach 4.5:1 for any colour", () => {
    for (const accent of ["#ffeb3b", "#0f766e", "#ffffff", "#000000", "#7f7f7f", "#ff00ff", "#22c55e", null, "bogus"]) {
      const { accent: base, ink, text } = accentColours(accent);
      expect(contrast(rgb(base), rgb(ink)), `${accent}: ink`).toBeGreaterThanOrEqual(4.5);
      const tint = rgb(base).map((v) => v * 0.1 + 255 * 0.9) as [number, number, number];
      expect(contrast(rgb(text), tint), `${accent}: text on the tint`).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe("the flow's address and days", () => {
  it("reads only valid parameters and names the wrong ones", () => {
    const { flow, problems } = flowOf("demo", {
      service: "svc_1",
      day: "2026-02-30",
      tz: "Mars/Base",
      month: "2026-13",
      lang: "de",
      embed: "1",
    });
    expect(flow).toEqual({ slug: "demo", service: "svc_1", lang: "de", embed: true });
    expect(problems).toEqual(["day", "month", "zone"]);
    expect(hrefOf({ ...flow, day: "2026-12-01", tz: "America/New_York" })).toBe(
      "/book/demo?service=svc_1&day=2026-12-01&tz=America%2FNew_York&lang=de&embed=1",
    );
    expect(isDay("2028-02-29")).toBe(true);
    expect(isDay("2027-02-29")).toBe(false);
  });

  it("a local day's first instant, across a change of clocks", () => {
    // Berlin's clocks go back at 03:00 on 25 October 2026: that day has 25 hours.
    const day = "2026-10-25";
    expect(new Date(startOfDay(day, "Europe/Berlin")).toISOString()).toBe("2026-10-24T22:00:00.000Z");
    expect(startOfDay(addDays(day, 1), "Europe/Berlin") - startOfDay(day, "Europe/Berlin")).toBe(25 * 3_600_000);
    expect(dayKeyOf("2026-12-01T04:30:00Z", "America/New_York")).toBe("2026-11-30");
  });
});
