/** GET /feeds/{token}.ics: a person's bookings for calendar apps, opened by the address alone. */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  api,
  awayFromWindowEdge,
  createAccount,
  createCustomer,
  createService,
  insertBooking,
  json,
  problem,
} from "../../support/api";
import { at, book, bookingBody, DAY_MS } from "../../support/bookings";
import { eventsOf, issueFeed, readFeed } from "../../support/feeds";
import { createProvider, salon } from "../../support/fixtures";

const daysFromNow = (days: number) =>
  new Date(Math.floor((Date.now() + days * DAY_MS) / 60_000) * 60_000).toISOString();

/** A person with bookings around the feed's window edges, and what the feed should show. */
async function providerWithHistory() {
  const { apiKey, businessId } = await createAccount();
  const provider = await createProvider(apiKey, { name: "Dr Who" });
  const service = await createService(apiKey, { name: "Check-up" });
  const customer = await createCustomer(apiKey);
  const base = {
    serviceId: service.id,
    customerId: customer.id,
    providerId: provider.id,
    customerName: "Grace Brewster Hopper",
    customerEmail: "grace.hopper@example.com",
    customerPhone: "+1 555 0100",
    notes: "Allergic to penicillin",
  };
  const tooOld = await insertBooking(businessId, { ...base, startTime: daysFromNow(-31) });
  const recent = await insertBooking(businessId, { ...base, startTime: daysFromNow(-29), status: "COMPLETED" });
  const pending = await insertBooking(businessId, { ...base, startTime: daysFromNow(2), status: "PENDING" });
  const cancelled = await insertBooking(businessId, { ...base, startTime: daysFromNow(3), status: "CANCELLED" });
  const ahead = await insertBooking(businessId, { ...base, startTime: daysFromNow(365) });
  const tooFar = await insertBooking(businessId, { ...base, startTime: daysFromNow(367) });
  const feed = await issueFeed(apiKey, provider.id);
  return { apiKey, businessId, provider, feed, shown: [recent, pending, ahead], hidden: [tooOld, cancelled, tooFar] };
}

describe("happy", () => {
  it("one event per booking not cancelled, from 30 days ago to a year ahead, earliest first", async () => {
    const p = await providerWithHistory();
    const { events, name } = await eventsOf(await readFeed(p.feed.path));
    expect(name).toBe("Dr Who");
    expect(events).toEqual(
      p.shown.map((b) => ({
        uid: b.id,
        summary: "Check-up — Grace",
        start: b.startTime,
        end: b.endTime,
        status: b.status === "PENDING" ? "TENTATIVE" : "CONFIRMED",
      })),
    );
  });

  it("an unchanged feed answers 304 to its ETag; a new booking changes the ETag", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    await book(s.apiKey, bookingBody(s.cut, at(2, "10:00")));
    const feed = await issueFeed(s.apiKey, person);
    const first = await readFeed(feed.path);
    const etag = first.headers.get("ETag") ?? "";
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(first.headers.get("Cache-Control")).toBe("private, no-cache");
    const again = await readFeed(feed.path, undefined, { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const added = await book(s.apiKey, bookingBody(s.cut, at(2, "11:00")));
    const changed = await readFeed(feed.path, undefined, { "If-None-Match": etag });
    expect(changed.headers.get("ETag")).not.toBe(etag);
    expect((await eventsOf(changed)).events.map((e) => e.uid)).toContain(added.id);
  });
  it("a person with 1,000 bookings gets all of them, in under 300 KB (about 235 bytes each)", async () => {
    const { apiKey, businessId } = await createAccount();
    const provider = await createProvider(apiKey, { name: "Busy Person" });
    const service = await createService(apiKey, { name: "Physiotherapy session" });
    const customer = await createCustomer(apiKey);
    for (let i = 0; i < 1000; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          insertBooking(businessId, {
            serviceId: service.id,
            customerId: customer.id,
            providerId: provider.id,
            customerName: "Alexandria Ocasio-Smith",
            startTime: new Date(Date.parse(daysFromNow(1)) + (i + j) * 3_600_000).toISOString(),
          }),
        ),
      );
    }
    const feed = await issueFeed(apiKey, provider.id);
    const res = await readFeed(feed.path);
    const bytes = Number(res.headers.get("Content-Length") ?? (await res.clone().arrayBuffer()).byteLength);
    const { events } = await eventsOf(res);
    expect(events).toHaveLength(1000);
    expect(bytes).toBeLessThan(300_000);
  });
});

describe("error", () => {
  it("an altered, malformed or unknown token is the same 404 that names nothing", async () => {
    const p = await providerWithHistory();
    const token = p.feed.path.slice("/feeds/".length, -".ics".length);
    const i = token.length - 5;
    const altered = `${token.slice(0, i)}${token[i] === "A" ? "B" : "A"}${token.slice(i + 1)}`;
    const malformed = ["/feeds/cal_short.ics", "/feeds/%ZZ.ics", `/feeds/${"x".repeat(5000)}.ics`];
    for (const path of [`/feeds/${altered}.ics`, `/feeds/${token.toUpperCase()}.ics`, ...malformed]) {
      const body = await problem(await readFeed(path, "198.51.100.21"), 404, "not_found");
      expect(JSON.stringify(body), path).not.toMatch(/Dr Who|Grace|prv_|bkg_|biz_/);
    }
    // Without `.ics` there is no such route.
    await problem(await readFeed(`/feeds/${token}`, "198.51.100.21"), 404, "not_found");
  });
});

describe("security", () => {
  it("shows no e-mail, phone, notes or family name, and nothing of an erased customer", async () => {
    const p = await providerWithHistory();
    const { text } = await eventsOf(await readFeed(p.feed.path));
    for (const secret of ["grace.hopper", "555", "penicillin", "Hopper", "Brewster", p.businessId]) {
      expect(text, secret).not.toContain(secret);
    }

    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const booked = await book(s.apiKey, bookingBody(s.cut, at(2, "10:00"), { customerName: "Zelda Fitzgerald" }));
    const feed = await issueFeed(s.apiKey, person);
    expect((await eventsOf(await readFeed(feed.path))).events[0]?.summary).toBe("Cut — Zelda");
    expect((await api("DELETE", `/customers/${booked.customerId}`, { key: s.apiKey })).status).toBe(204);
    const after = await eventsOf(await readFeed(feed.path));
    expect(after.events.map((e) => [e.uid, e.summary])).toEqual([[booked.id, "Cut"]]);
    expect(after.text).not.toMatch(/Zelda|Erased/);
  });

  it("guessing is throttled per address: random tokens find nothing, then 429; other subscribers read on", async () => {
    const p = await providerWithHistory();
    const statuses: number[] = [];
    // The limiter's minute is the wall clock's: the burst must not straddle one.
    await awayFromWindowEdge(60, 20_000);
    for (let i = 0; i < 130; i++) {
      const guess = `cal_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
        .replaceAll("+", "-")
        .replaceAll("/", "_")
        .replace(/=+$/, "")}`;
      const res = await readFeed(`/feeds/${guess}.ics`, "203.0.113.99");
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get("Retry-After")).toBe("60");
      await res.arrayBuffer();
    }
    expect(statuses).not.toContain(200);
    expect(statuses.slice(0, 120).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(120).every((s) => s === 429)).toBe(true);
    expect((await readFeed(p.feed.path, "198.51.100.33")).status).toBe(200);
  });

  it("never writes a token to the log", async () => {
    const p = await providerWithHistory();
    const lines: string[] = [];
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        lines.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
      });
    }
    await (await readFeed(p.feed.path)).arrayBuffer();
    await (await readFeed("/feeds/cal_0000000000000000000000000000000000000000000.ics")).arrayBuffer();
    vi.restoreAllMocks();
    const token = p.feed.path.slice("/feeds/".length, -".ics".length);
    expect(lines.some((l) => l.includes('"msg":"request"'))).toBe(true);
    expect(lines.join("\n")).not.toContain(token);
    expect(lines.join("\n")).not.toContain("cal_0000");
  });

  afterEach(() => vi.restoreAllMocks());
});

it("the document lists the feed without security", async () => {
  const doc = await json(await api("GET", "/openapi.json"));
  const operation = doc.paths["/feeds/{token}.ics"]?.get;
  expect(operation).toMatchObject({ operationId: "getCalendarFeed", security: [] });
  expect(Object.keys(operation.responses["200"].content)).toEqual(["text/calendar"]);
});
