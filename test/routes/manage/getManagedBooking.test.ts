/** GET /manage/{token}: a customer's own booking, opened by the signed link alone. */

import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bookings } from "../../../src/db/schema";
import { api, db, insertBooking, json, problem } from "../../support/api";
import { at, DAY_MS } from "../../support/bookings";
import { salon } from "../../support/fixtures";
import { bookWithLink, clinic, linkPath, minutesFromNow, viaLink } from "../../support/manage-links";

describe("happy", () => {
  it("shows the booking with names, not the business's ids, and until when it can change", async () => {
    const c = await clinic({ cancellationNoticeMinutes: 1440, rescheduleNoticeMinutes: 120 });
    const start = minutesFromNow(3 * 1440);
    const { booking, path } = await bookWithLink(c.apiKey, c.serviceId, start, {
      customerName: "Grace Hopper",
      notes: "Second floor",
    });
    const res = await viaLink("GET", path);
    expect(res.status).toBe(200);
    const view = await json(res);
    expect(view).toEqual({
      id: booking.id,
      status: "CONFIRMED",
      startTime: booking.startTime,
      endTime: booking.endTime,
      service: { name: "Check-up", durationMinutes: 30, timezone: "UTC" },
      providerNames: [],
      customerName: "Grace Hopper",
      customerEmail: booking.customerEmail,
      customerPhone: null,
      notes: "Second floor",
      cancelledAt: null,
      cancellationReason: null,
      cancellableUntil: new Date(Date.parse(start) - 1440 * 60_000).toISOString(),
      // Moving frees the seat as cancelling does: the longer of the two notices binds a move.
      reschedulableUntil: new Date(Date.parse(start) - 1440 * 60_000).toISOString(),
      manageUrl: booking.manageUrl,
    });
    expect(JSON.stringify(view)).not.toMatch(/svc_|cus_|biz_|prv_/);
  });

  it("reports as reschedulableUntil the earlier of the two deadlines, whichever notice is longer", async () => {
    const c = await clinic({ cancellationNoticeMinutes: 60, rescheduleNoticeMinutes: 300 });
    const { booking, path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(3 * 1440));
    const startMinus = (minutes: number) => new Date(Date.parse(booking.startTime) - minutes * 60_000).toISOString();
    const view = await json(await viaLink("GET", path));
    expect(view).toMatchObject({ cancellableUntil: startMinus(60), reschedulableUntil: startMinus(300) });
  });

  it("is the same URL on every read of the booking: its GET and the lists", async () => {
    const c = await clinic();
    const { booking } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(600));
    const read = await json(await api("GET", `/bookings/${booking.id}`, { key: c.apiKey }));
    const list = await json(await api("GET", "/bookings", { key: c.apiKey }));
    expect(read.manageUrl).toBe(booking.manageUrl);
    expect(list.data.map((b: { manageUrl: string }) => b.manageUrl)).toEqual([booking.manageUrl]);
  });

  it("names the people who perform it", async () => {
    const s = await salon(2);
    const [, second] = s.providerIds as [string, string];
    const { path } = await bookWithLink(s.apiKey, s.cut, at(2, "10:00"), { providerId: second });
    const view = await json(await viaLink("GET", path));
    expect(view.providerNames).toEqual(["Stylist 1"]);
  });
});

describe("error", () => {
  it("a malformed, unknown or altered token is the same 404 that names nothing", async () => {
    const c = await clinic();
    const { path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(600), { customerName: "Zelda Fitz" });
    const token = path.slice("/manage/".length);
    const bodies = [];
    for (let i = 0; i < token.length; i++) {
      const ch = token[i] === "a" ? "b" : "a";
      const altered = `${token.slice(0, i)}${token[i] === "." ? "x" : ch}${token.slice(i + 1)}`;
      bodies.push(
        await problem(await viaLink("GET", `/manage/${altered}`, undefined, `203.0.113.${i % 200}`), 404, "not_found"),
      );
    }
    for (const wrong of ["x", `${token}x`, token.slice(0, -1), `%ZZ`, "y".repeat(5000)]) {
      bodies.push(
        await problem(await viaLink("GET", `/manage/${wrong}`, undefined, "203.0.113.250"), 404, "not_found"),
      );
    }
    for (const body of bodies) {
      const { instance: _echoedPath, ...rest } = body;
      expect(JSON.stringify(rest)).not.toMatch(/Zelda|bkg_|svc_|biz_/);
      expect(body.detail).toBe("There is no booking at this link, or the link has ended.");
    }
  });
});

describe("security", () => {
  it("a link ends 7 days after the booking's end: its URL is null, the old token a 404", async () => {
    const c = await clinic();
    const { booking } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(600));
    const endedAgo = async (days: number) => {
      const row = await insertBooking(c.businessId, {
        serviceId: c.serviceId,
        customerId: booking.customerId,
        startTime: new Date(Date.now() - days * DAY_MS - 30 * 60_000).toISOString(),
      });
      return json(await api("GET", `/bookings/${row.id}`, { key: c.apiKey }));
    };
    const recent = await endedAgo(6.9);
    expect((await viaLink("GET", linkPath(recent.manageUrl))).status).toBe(200);
    expect((await endedAgo(7.1)).manageUrl).toBeNull();
    // The same token, once its booking ended more than 7 days ago.
    const token = linkPath(recent.manageUrl);
    await db()
      .update(bookings)
      .set({ endTime: new Date(Date.now() - 7.1 * DAY_MS).toISOString() })
      .where(eq(bookings.id, recent.id));
    await problem(await viaLink("GET", token), 404, "not_found");
  });

  it("erasing the customer ends their links at once", async () => {
    const c = await clinic();
    const { booking, path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(600));
    expect((await viaLink("GET", path)).status).toBe(200);
    expect((await api("DELETE", `/customers/${booking.customerId}`, { key: c.apiKey })).status).toBe(204);
    await problem(await viaLink("GET", path), 404, "not_found");
    await problem(await viaLink("POST", `${path}/cancel`, {}), 404, "not_found");
    expect((await json(await api("GET", `/bookings/${booking.id}`, { key: c.apiKey }))).manageUrl).toBeNull();
  });

  it("never writes a token to the log", async () => {
    const c = await clinic();
    const { path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(600));
    const lines: string[] = [];
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        lines.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
      });
    }
    await (await viaLink("GET", path)).arrayBuffer();
    await (await viaLink("POST", `${path}/cancel`, {})).arrayBuffer();
    await (await viaLink("GET", path)).arrayBuffer();
    vi.restoreAllMocks();
    const token = path.slice("/manage/".length);
    expect(lines.some((l) => l.includes('"msg":"request"'))).toBe(true);
    expect(lines.join("\n")).not.toContain(token.split(".")[1]);
  });

  afterEach(() => vi.restoreAllMocks());
});

it("the document lists the link's operations without security", async () => {
  const doc = await json(await api("GET", "/openapi.json"));
  expect(doc.paths["/manage/{token}"]?.get).toMatchObject({ operationId: "getManagedBooking", security: [] });
});
