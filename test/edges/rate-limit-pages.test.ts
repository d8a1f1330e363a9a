/**
 * The booking pages' budgets: per client address and per business, for the HTML pages and the
 * public JSON alike. Runs in the "edges" project (vitest.config.ts), whose PAGE_LIMITER and
 * PAGE_BUSINESS_LIMITER have small budgets (PAGE_BUDGET, PAGE_BUSINESS_BUDGET name them).
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { json, problem } from "../support/api";
import { awayFromWindowEdge } from "../support/edges";
import { getPage, html, pageBusiness, textOf, viaPage } from "../support/public";

const budget = (name: string) => {
  const [limit, period] = String((env as unknown as Record<string, string>)[name])
    .split("/")
    .map(Number);
  return { limit: limit as number, period: period as number };
};
const perAddress = budget("PAGE_BUDGET");
const perBusiness = budget("PAGE_BUSINESS_BUDGET");

beforeAll(() => {
  expect(perAddress.limit).toBeLessThan(perBusiness.limit);
  expect(perBusiness.limit).toBeLessThanOrEqual(20);
});

describe("booking page budgets", () => {
  it("one address: a 429 with Retry-After once its budget is spent; another address goes on", async () => {
    const f = await pageBusiness();
    await awayFromWindowEdge(perAddress.period);
    for (let i = 0; i < perAddress.limit; i++)
      expect((await viaPage(f.slug, "GET", "/services", undefined, "192.0.2.61")).status).toBe(200);
    const refused = await viaPage(f.slug, "GET", "/services", undefined, "192.0.2.61");
    const body = await problem(refused, 429, "rate_limited");
    expect(body.detail).toBe("Too many requests to this booking page; try again in a minute.");
    expect(refused.headers.get("Retry-After")).toBe(String(perAddress.period));
    // The HTML page from that address: a page that says to wait.
    const page = await getPage(`/book/${f.slug}`, {}, "192.0.2.61");
    expect(page.headers.get("Retry-After")).toBe(String(perAddress.period));
    expect(textOf(await html(page, 429))).toContain("Please wait a minute, then try again.");
    expect((await viaPage(f.slug, "GET", "/services", undefined, "192.0.2.62")).status).toBe(200);
  });

  it("one business: a 429 for every address once the page's budget is spent; another business's page goes on", async () => {
    const f = await pageBusiness();
    const other = await pageBusiness();
    await awayFromWindowEdge(perBusiness.period);
    for (let i = 0; i < perBusiness.limit; i++) {
      expect((await viaPage(f.slug, "GET", "/services", undefined, `192.0.2.${100 + i}`)).status).toBe(200);
    }
    await problem(await viaPage(f.slug, "GET", "/services", undefined, "192.0.2.150"), 429, "rate_limited");
    expect((await json(await viaPage(other.slug, "GET", "/services", undefined, "192.0.2.151"))).services).toHaveLength(
      1,
    );
  });
});
