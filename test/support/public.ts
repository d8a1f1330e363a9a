/**
 * Booking pages in tests: a business with its page on and services offered online, calls of the
 * public JSON without a key (from a given client address), and the HTML pages with a browser's
 * headers. Not a test file.
 */
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { api, createAccount, createService, json, origin } from "./api";
import { allDay, plus } from "./bookings";
import { newProvider } from "./fixtures";

/** A slug no other test uses. */
export const freshSlug = () => `t-${crypto.randomUUID().slice(0, 13)}`;

export type PageFixture = {
  apiKey: string;
  businessId: string;
  slug: string;
  /** A 30-minute service, every minute bookable around the clock, offered online. */
  serviceId: string;
};

/** Turns on the business's page at a fresh slug (and the given settings). */
export async function enablePage(apiKey: string, settings: Record<string, unknown> = {}) {
  const slug = freshSlug();
  const res = await api("PATCH", "/business", {
    key: apiKey,
    body: { slug, contactEmail: "hello@salon.example", bookingPage: { enabled: true }, ...settings },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return slug;
}

/** A business with its page on and one 30-minute service offered online (`fields` change it). */
export async function pageBusiness(fields: Record<string, unknown> = {}, settings: Record<string, unknown> = {}) {
  const account = await createAccount("Page Salon");
  const service = await createService(account.apiKey, {
    name: "Cut",
    durationMinutes: 30,
    slotIntervalMinutes: 30,
    weeklySchedule: allDay,
    bookableOnline: true,
    ...fields,
  });
  const slug = await enablePage(account.apiKey, settings);
  return { ...account, slug, serviceId: service.id as string } satisfies PageFixture;
}

/** The same, with `n` people who perform the service (`Stylist 0` …, all day). */
export async function pageWithProviders(n: number, fields: Record<string, unknown> = {}) {
  const account = await createAccount("Page Salon");
  const providerIds: string[] = [];
  for (let i = 0; i < n; i++)
    providerIds.push(await newProvider(account.apiKey, `Stylist ${i}`, { weeklySchedule: allDay }));
  const service = await createService(account.apiKey, {
    name: "Cut",
    durationMinutes: 30,
    slotIntervalMinutes: 30,
    weeklySchedule: allDay,
    bookableOnline: true,
    providerIds,
    ...fields,
  });
  const slug = await enablePage(account.apiKey);
  return { ...account, slug, serviceId: service.id as string, providerIds };
}

/** A call of the page's public JSON (`/api/v1/public/{slug}{path}`), without a key, from `address`. */
export const viaPage = (slug: string, method: string, path: string, body?: unknown, address = "198.51.100.20") =>
  api(method, `/public/${slug}${path}`, { key: null, body, headers: { "CF-Connecting-IP": address } });

/** POST …/holds for a 30-minute time at `startTime`. */
export const publicHold = (slug: string, serviceId: string, startTime: string, address?: string, extra = {}) =>
  viaPage(slug, "POST", "/holds", { serviceId, startTime, endTime: plus(startTime, 30), ...extra }, address);

/** A page hold that must be placed; its JSON. */
export async function heldOnPage(slug: string, serviceId: string, startTime: string, address?: string, extra = {}) {
  const res = await publicHold(slug, serviceId, startTime, address, extra);
  expect(res.status, await res.clone().text()).toBe(201);
  return json(res) as Promise<{ id: string; expiresAt: string; holdToken: string }>;
}

/** A customer's part of a page booking. */
export const customer = (extra: Record<string, unknown> = {}) => ({
  customerName: "Grace Hopper",
  customerEmail: `${crypto.randomUUID()}@example.com`,
  ...extra,
});

/** POST …/bookings for a hold. */
export const publicBooking = (slug: string, hold: { id: string; holdToken: string }, extra = {}, address?: string) =>
  viaPage(slug, "POST", "/bookings", { holdId: hold.id, holdToken: hold.holdToken, ...customer(), ...extra }, address);

/** A browser's navigation headers. */
export const browser = { Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

/** A GET of a page (a path from the origin) as a browser sends it, from `address`. */
export function getPage(path: string, headers: Record<string, string> = {}, address = "198.51.100.30") {
  return exports.default.fetch(
    new Request(`${origin}${path}`, { headers: { ...browser, "CF-Connecting-IP": address, ...headers } }),
  );
}

/** A form post of a page, same-origin unless `headers` say otherwise (`""` leaves one out); redirects are not followed. */
export function postForm(
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
  address = "198.51.100.30",
) {
  return exports.default.fetch(
    new Request(`${origin}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: Object.entries({
        ...browser,
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: origin,
        "Sec-Fetch-Site": "same-origin",
        "CF-Connecting-IP": address,
        ...headers,
      }).filter(([, value]) => value !== ""),
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

/** A page's HTML, asserting its status and media type. */
export async function html(res: Response, status = 200): Promise<string> {
  const text = await res.text();
  expect({ status: res.status, type: res.headers.get("Content-Type") }, text.slice(0, 500)).toEqual({
    status,
    type: "text/html; charset=UTF-8",
  });
  expect(text.startsWith("<!doctype html>")).toBe(true);
  return text;
}

/** The text of a page with tags removed and entities of quotes decoded, for reading what it says. */
export const textOf = (page: string) =>
  page
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&#39;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&")
    .replace(/\s+/g, " ")
    .replace(/ ([.,;!?])/g, "$1");

/** A minute-aligned UTC instant `minutes` from now, on the 30-minute grid. */
export function slotFromNow(minutes: number): string {
  const grid = 30 * 60_000;
  return new Date(Math.ceil((Date.now() + minutes * 60_000) / grid) * grid).toISOString().replace(".000Z", "Z");
}
