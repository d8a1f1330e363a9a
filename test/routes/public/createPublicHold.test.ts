/**
 * POST /public/{slug}/holds: a page's hold, its token, the bound of 3 live per address (an IPv6
 * address's /64) and service, and the page holds' share of a day's free times.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, createService, json, problem, validationError } from "../../support/api";
import { at, book, bookingBody, plus, postBooking, slotAt } from "../../support/bookings";
import { heldOnPage, pageBusiness, pageWithProviders, publicHold, viaPage } from "../../support/public";

describe("happy", () => {
  it("201 with the hold's id, its end 10 minutes on and its token; the seat is taken", async () => {
    const f = await pageBusiness();
    const start = at(3, "10:00");
    const before = Date.now();
    const res = await publicHold(f.slug, f.serviceId, start);
    expect(res.status).toBe(201);
    const hold = await json(res);
    expect(Object.keys(hold).sort()).toEqual(["expiresAt", "holdToken", "id"]);
    expect(hold.id).toMatch(/^hld_[0-9a-z]{26}$/);
    expect(hold.holdToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const ttl = Date.parse(hold.expiresAt) - before;
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(601_000);
    expect(await slotAt(f.apiKey, f.serviceId, start)).toMatchObject({ held: 1, bookable: false });
    // The business sees it as its own hold.
    expect(await json(await api("GET", `/holds/${hold.id}`, { key: f.apiKey }))).toMatchObject({
      status: "HELD",
      serviceId: f.serviceId,
    });
    expect((await postBooking(f.apiKey, bookingBody(f.serviceId, start))).status).toBe(409);
  });

  it("keeps the named person's time, or one assigned", async () => {
    const f = await pageWithProviders(2);
    const [, second] = f.providerIds as [string, string];
    const named = await heldOnPage(f.slug, f.serviceId, at(3, "10:00"), undefined, { providerId: second });
    expect((await json(await api("GET", `/holds/${named.id}`, { key: f.apiKey }))).providerId).toBe(second);
    const any = await heldOnPage(f.slug, f.serviceId, at(3, "11:00"));
    expect(f.providerIds).toContain((await json(await api("GET", `/holds/${any.id}`, { key: f.apiKey }))).providerId);
  });
});

describe("error", () => {
  it("a taken time is a 409 slot_unavailable, and holds nothing", async () => {
    const f = await pageBusiness();
    const start = at(3, "10:00");
    await heldOnPage(f.slug, f.serviceId, start, "203.0.113.1");
    const body = await problem(await publicHold(f.slug, f.serviceId, start, "203.0.113.2"), 409, "slot_unavailable");
    expect(body.reason).toBe("fully_booked");
  });

  it("a service the page does not offer is a 422 service_not_found; a person who does not perform it a 422", async () => {
    const f = await pageWithProviders(1);
    const offline = await createService(f.apiKey, { name: "Offline" });
    const body = await problem(await publicHold(f.slug, offline.id, at(3, "10:00")), 422, "service_not_found");
    expect(body.errors).toEqual([{ path: "serviceId", message: "Not a service of this booking page." }]);
    await validationError(
      await publicHold(f.slug, f.serviceId, at(3, "10:00"), undefined, { providerId: "prv_x" }),
      "providerId",
    );
  });

  it("times off the rules are a 422 at their field: the past, a wrong length, a malformed body", async () => {
    const f = await pageBusiness();
    await validationError(await publicHold(f.slug, f.serviceId, at(-1, "10:00")), "startTime");
    const start = at(3, "10:00");
    const wrongLength = await viaPage(f.slug, "POST", "/holds", {
      serviceId: f.serviceId,
      startTime: start,
      endTime: plus(start, 45),
    });
    await validationError(wrongLength, "endTime");
    await validationError(
      await viaPage(f.slug, "POST", "/holds", { serviceId: f.serviceId, startTime: start }),
      "endTime",
    );
    await validationError(await publicHold(f.slug, f.serviceId, start, undefined, { ttlSeconds: 3600 }), "ttlSeconds");
    await problem(await publicHold("no-such-page", f.serviceId, start), 404, "not_found");
  });

  it("a fourth live hold from one address on one service is a 409 hold_limit_reached; other addresses and services still hold", async () => {
    const f = await pageBusiness();
    const other = await createService(f.apiKey, { name: "Other", bookableOnline: true });
    for (const time of ["10:00", "10:30", "11:00"]) await heldOnPage(f.slug, f.serviceId, at(3, time), "203.0.113.9");
    const body = await problem(
      await publicHold(f.slug, f.serviceId, at(3, "11:30"), "203.0.113.9"),
      409,
      "hold_limit_reached",
    );
    expect(body.detail).toMatch(/3 times of this service/);
    expect((await slotAt(f.apiKey, f.serviceId, at(3, "11:30")))?.held).toBe(0);
    await heldOnPage(f.slug, f.serviceId, at(3, "11:30"), "203.0.113.10");
    await heldOnPage(f.slug, other.id, at(3, "12:00"), "203.0.113.9");
  });
});

describe("security", () => {
  it("a burst of 12 concurrent holds from one address passes the bound of 3 not once", async () => {
    const f = await pageBusiness();
    const times = Array.from({ length: 12 }, (_, i) => plus(at(4, "08:00"), 30 * i));
    const answers = await Promise.all(times.map((time) => publicHold(f.slug, f.serviceId, time, "203.0.113.77")));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    const held = await Promise.all(times.map((time) => slotAt(f.apiKey, f.serviceId, time)));
    expect(held.filter((slot) => slot?.held === 1)).toHaveLength(3);
  });

  it("D1 keeps no client address: a keyed hash of it, per service", async () => {
    const f = await pageBusiness();
    const hold = await heldOnPage(f.slug, f.serviceId, at(3, "10:00"), "203.0.113.55");
    const row = await env.DB_0.prepare("SELECT api_key_id FROM holds WHERE id = ?")
      .bind(hold.id)
      .first<{ api_key_id: string }>();
    expect(row?.api_key_id).toMatch(new RegExp(`^page:${f.serviceId}:[A-Za-z0-9_-]{22}$`));
    expect(row?.api_key_id).not.toContain("203.0.113.55");
  });

  it("a page cannot hold another business's service", async () => {
    const a = await pageBusiness();
    const b = await pageBusiness();
    await problem(await publicHold(a.slug, b.serviceId, at(3, "10:00")), 422, "service_not_found");
    expect((await slotAt(b.apiKey, b.serviceId, at(3, "10:00")))?.held).toBe(0);
  });
});

/** A service's fields for hours `start`–`end` UTC every day. */
function daily(start: string, end: string) {
  const day = [{ start, end }];
  return { weeklySchedule: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day } };
}
/** Every day 09:00–12:00 UTC: six 30-minute times. */
const morning = daily("09:00", "12:00");
const sixTimes = (day: number) => Array.from({ length: 6 }, (_, i) => plus(at(day, "09:00"), 30 * i));

describe("no visitor, nor any set of addresses, holds a day off the page", () => {
  it("addresses of one IPv6 /64 are one visitor: a fourth live hold from that network is a 409 hold_limit_reached", async () => {
    const f = await pageBusiness();
    const times = Array.from({ length: 5 }, (_, i) => plus(at(3, "10:00"), 30 * i));
    const network = ["2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe", "2001:0DB8:0001:0002:0:0:0:77"];
    for (const [i, address] of network.entries()) await heldOnPage(f.slug, f.serviceId, times[i] as string, address);
    const body = await problem(
      await publicHold(f.slug, f.serviceId, times[3] as string, "2001:db8:1:2:1234::9"),
      409,
      "hold_limit_reached",
    );
    expect(body.detail).toMatch(/3 times of this service/);
    expect((await slotAt(f.apiKey, f.serviceId, times[3] as string))?.held).toBe(0);
    // The next /64 is another line.
    await heldOnPage(f.slug, f.serviceId, times[4] as string, "2001:db8:1:3::1");
  });

  it("page holds from six addresses keep 3 of a day's 6 free times, the 4th is a 409 naming the day's share; the API's key still holds", async () => {
    const f = await pageBusiness(morning);
    const times = sixTimes(3);
    for (const [i, time] of times.slice(0, 3).entries())
      await heldOnPage(f.slug, f.serviceId, time, `203.0.113.${i + 1}`);
    const body = await problem(
      await publicHold(f.slug, f.serviceId, times[3] as string, "203.0.113.4"),
      409,
      "hold_limit_reached",
    );
    expect(body.reason).toBe("day_share");
    expect(body.detail).toMatch(/this day's times/);
    expect((await slotAt(f.apiKey, f.serviceId, times[3] as string))?.held).toBe(0);
    // Another day of the service has its own share; the business's key is not bound by the page's.
    await heldOnPage(f.slug, f.serviceId, at(4, "09:00"), "203.0.113.4");
    const res = await api("POST", "/holds", {
      key: f.apiKey,
      body: { serviceId: f.serviceId, startTime: times[3], endTime: plus(times[3] as string, 30), ttlSeconds: 300 },
    });
    expect(res.status).toBe(201);
  });

  it("a day's booked times are not free: with 2 of 6 booked, page holds keep 2 of the 4 left", async () => {
    const f = await pageBusiness(morning);
    const times = sixTimes(3);
    for (const time of times.slice(4)) await book(f.apiKey, bookingBody(f.serviceId, time));
    await heldOnPage(f.slug, f.serviceId, times[0] as string, "198.51.100.1");
    await heldOnPage(f.slug, f.serviceId, times[1] as string, "198.51.100.2");
    await problem(await publicHold(f.slug, f.serviceId, times[2] as string, "198.51.100.3"), 409, "hold_limit_reached");
  });

  it("a concurrent burst of holds from 12 addresses on a 12-time day places exactly 6", async () => {
    const f = await pageBusiness(daily("09:00", "15:00"));
    const times = Array.from({ length: 12 }, (_, i) => plus(at(3, "09:00"), 30 * i));
    const answers = await Promise.all(
      times.map((time, i) => publicHold(f.slug, f.serviceId, time, `2001:db8:${i + 1}::1`)),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(6);
    expect(statuses.filter((s) => s === 409)).toHaveLength(6);
    const held = await Promise.all(times.map((time) => slotAt(f.apiKey, f.serviceId, time)));
    expect(held.filter((slot) => slot?.held === 1)).toHaveLength(6);
  });
});
