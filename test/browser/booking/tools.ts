/**
 * The booking test's tools: the demo API (its fixed local key), accessibility audits with
 * axe-core injected into the page, screenshots in .ci/artifacts/, what each step weighs, and a
 * watch on every page for errors, CSP violations and requests to other hosts.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { BrowserContext, Frame, Locator, Page } from "playwright-core";
import { DEMO_API_KEY } from "../../../scripts/lib/demo.ts";
import { artifactsDir, check, root } from "../harness.ts";

const axeSource = readFileSync(path.join(root, "node_modules", "axe-core", "axe.min.js"), "utf8");
const wcag = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * Clicks (or presses a key) and waits for what that leads to: the address matching `url`, where
 * given, and `shows`, an element of the page it leads to (none of the page before), visible. Not
 * a navigation event: a wait for one can miss it (one the page's script starts, a POST answered
 * at the same address) and then waits out its whole timeout.
 */
export async function arrive(page: Page, act: () => Promise<unknown>, shows: Locator, url?: RegExp): Promise<void> {
  await act();
  if (url) await page.waitForURL(url);
  await shows.first().waitFor({ state: "visible" });
}

/** A call of the demo business's API with its local key. */
export async function demoApi(origin: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${origin}/api/v1${route}`, {
    method,
    headers: { Authorization: `Bearer ${DEMO_API_KEY}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: the test reads arbitrary JSON
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
}

/** The demo service called `name`, from the page's public JSON. */
export async function demoService(origin: string, name: string): Promise<{ id: string; timezone: string }> {
  const res = await fetch(`${origin}/api/v1/public/demo-salon/services`);
  const { services } = (await res.json()) as { services: { id: string; name: string; timezone: string }[] };
  const service = services.find((s) => s.name === name);
  if (!service) throw new Error(`the demo page offers no ${name}`);
  return service;
}

/** The dates (in `tz`) of the next two weeks on which the page offers at least `least` times of the service. */
export async function daysWithTimes(origin: string, serviceId: string, tz: string, least = 4): Promise<string[]> {
  const from = new Date().toISOString();
  const to = new Date(Date.now() + 14 * 86_400_000).toISOString();
  const res = await fetch(
    `${origin}/api/v1/public/demo-salon/services/${serviceId}/availability?from=${from}&to=${to}`,
  );
  const { slots } = (await res.json()) as { slots: { startTime: string; bookable: boolean }[] };
  const perDay = new Map<string, number>();
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: tz });
  for (const slot of slots.filter((s) => s.bookable)) {
    const key = day.format(Date.parse(slot.startTime));
    perDay.set(key, (perDay.get(key) ?? 0) + 1);
  }
  return [...perDay].filter(([, n]) => n >= least).map(([key]) => key);
}

/** Runs axe-core (WCAG 2.2 AA tags) on the page and checks it finds no violation. */
export async function audit(page: Page | Frame, step: string): Promise<void> {
  // Evaluated through the DevTools protocol: the page's CSP (rightly) allows no injected script tag.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async (tags) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ...a: unknown[]
          ) => Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: tags } });
    return result.violations.map(
      (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`,
    );
  }, wcag);
  check(`axe-core finds no WCAG 2.2 AA violation: ${step}`, violations.length === 0, violations.join("\n"));
}

/** A full-page screenshot as .ci/artifacts/booking-<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, `booking-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
}

/**
 * Audited and photographed: what every step of every flow gets. A page without JavaScript is
 * audited as `auditor` (a page with it) sees the same address: axe-core is a script.
 */
export async function record(page: Page, name: string, auditor?: Page): Promise<void> {
  if (auditor) {
    await auditor.goto(page.url());
    await audit(auditor, `${name} (its address, audited with scripts on)`);
  } else await audit(page, name);
  await screenshot(page, name);
}

/** What one step's page transferred: HTML, CSS and JS, raw and gzip. */
export type Weight = {
  step: string;
  html: number;
  css: number;
  js: number;
  htmlGz: number;
  cssGz: number;
  jsGz: number;
};

/**
 * Weighs the page the next navigation loads: its document, stylesheet and script (what a first
 * visit transfers; the stylesheet and script are cached for a year after it).
 */
export function weigher(page: Page) {
  const bodies: Promise<{ type: "html" | "css" | "js"; bytes: Buffer }>[] = [];
  page.on("response", (response) => {
    const kind = response.request().resourceType();
    const type = kind === "document" ? "html" : kind === "stylesheet" ? "css" : kind === "script" ? "js" : undefined;
    if (!type || response.status() >= 300) return;
    bodies.push(
      response.body().then(
        (bytes) => ({ type, bytes }),
        () => ({ type, bytes: Buffer.alloc(0) }),
      ),
    );
  });
  return {
    start: () => {
      bodies.length = 0;
    },
    weigh: async (step: string): Promise<Weight> => {
      await page.waitForLoadState("load");
      const read = await Promise.all(bodies);
      const sum = (type: string, gz: boolean) =>
        read
          .filter((b) => b.type === type)
          .reduce((n, b) => n + (gz ? gzipSync(b.bytes, { level: 6 }).length : b.bytes.length), 0);
      return {
        step,
        html: sum("html", false),
        css: sum("css", false),
        js: sum("js", false),
        htmlGz: sum("html", true),
        cssGz: sum("css", true),
        jsGz: sum("js", true),
      };
    },
  };
}

/** Watches a context: console errors and CSP violations, failed requests, requests to other hosts than `allowed`. */
export function watch(context: BrowserContext, allowed: string[] = ["127.0.0.1"]) {
  const problems: string[] = [];
  context.on("request", (request) => {
    const { protocol, hostname } = new URL(request.url());
    if (!["data:", "blob:", "about:"].includes(protocol) && !allowed.includes(hostname))
      problems.push(`request to ${request.url()}`);
  });
  context.on("requestfailed", (request) => {
    // A download (the .ics) is not a page's request that failed.
    if (!request.url().endsWith(".ics")) problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`);
  });
  context.on("page", (page) => {
    page.on("console", (message) => {
      if (message.type() === "error" && !message.text().includes("status of 4"))
        problems.push(`console: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  });
  return {
    expectQuiet: (what: string) =>
      check(`${what}: no script error, CSP violation or foreign request`, problems.length === 0, problems.join("\n")),
  };
}
