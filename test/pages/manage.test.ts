/**
 * The manage link in a browser: the same URL answers the page when the request prefers HTML, and
 * the page's forms cancel and move the booking through the link's own calls, within the policy
 * windows; a dead or altered token is an HTML 404.
 */
import { describe, expect, it } from "vitest";
import { api, json } from "../support/api";
import { at, book, bookingBody } from "../support/bookings";
import { bookWithLink, clinic, minutesFromNow, viaLink } from "../support/manage-links";
import { getPage, html, postForm, textOf } from "../support/public";

const stored = async (apiKey: string, id: string) => json(await api("GET", `/bookings/${id}`, { key: apiKey }));

/** A clinic with a contact address, and a booking in `minutes` with its link's path from the origin. */
async function linked(minutes: number, policy: Record<string, unknown> = {}) {
  const c = await clinic(policy);
  await api("PATCH", "/business", { key: c.apiKey, body: { contactEmail: "desk@clinic.example" } });
  const { booking, path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(minutes), {
    customerName: "Grace Hopper",
  });
  return { ...c, booking, page: `/api/v1${path}` };
}

describe("happy", () => {
  it("a browser gets the page, a program the JSON, from the same URL (Vary: Accept)", async () => {
    const l = await linked(3 * 1440);
    const res = await getPage(l.page);
    const page = await html(res);
    expect(textOf(page)).toContain("Check-up");
    expect(textOf(page)).toContain("Confirmed");
    expect(page).toContain(`action="${l.page}/cancel"`);
    expect(page).toContain("Move to another time");
    const api = await getPage(l.page, { Accept: "application/json" });
    expect(api.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(api.headers.get("Vary")).toContain("Accept");
    expect((await json(api)).id).toBe(l.booking.id);
  });

  it("cancels with a reason: the page then shows the booking cancelled, and the link ends", async () => {
    const l = await linked(3 * 1440);
    const page = await html(await postForm(`${l.page}/cancel`, { reason: "Feeling better", tz: "UTC" }));
    expect(textOf(page)).toContain("This booking is cancelled");
    expect(textOf(page)).toContain("Cancelled");
    expect(await stored(l.apiKey, l.booking.id)).toMatchObject({
      status: "CANCELLED",
      cancellationReason: "Feeling better",
    });
    await html(await getPage(l.page), 404);
  });

  it("moves to a time picked from the page's month and day; the same link then shows it moved", async () => {
    const l = await linked(3 * 1440);
    const target = minutesFromNow(4 * 1440);
    const day = target.slice(0, 10);
    const dayPage = await html(await getPage(`${l.page}?day=${day}&tz=UTC`));
    expect(dayPage).toContain(`value="${new Date(target).toISOString()}"`);
    const res = await postForm(`${l.page}/reschedule`, {
      start: new Date(target).toISOString(),
      tz: "UTC",
      lang: "en",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`${l.page}?moved=1&tz=UTC&lang=en`);
    expect(textOf(await html(await getPage(res.headers.get("Location") as string)))).toContain(
      "Your booking was moved.",
    );
    expect((await stored(l.apiKey, l.booking.id)).startTime).toBe(new Date(target).toISOString());
  });
});

describe("error", () => {
  it("inside the window the page says until when, and whom to write to; a cancel by form is refused and changes nothing", async () => {
    const l = await linked(600, { cancellationNoticeMinutes: 1440 });
    const page = textOf(await html(await getPage(l.page)));
    const until = new Date(Date.parse(l.booking.startTime) - 1440 * 60_000);
    const when = new Intl.DateTimeFormat("en", {
      weekday: "long",
      day: "numeric",
      month: "long",
      year: "numeric",
      hour: "numeric",
      minute: "2-digit",
      timeZone: "UTC",
    }).format(until);
    expect(page).toContain(`Online changes were possible until ${when}.`);
    expect(page).toContain("To change it now, please write to desk@clinic.example.");
    const refused = textOf(await html(await postForm(`${l.page}/cancel`, { tz: "UTC" }), 409));
    expect(refused).toContain(`Online changes were possible until ${when}.`);
    const moved = await postForm(`${l.page}/reschedule`, { start: minutesFromNow(4 * 1440), tz: "UTC" });
    expect(moved.status).toBe(409);
    expect(await stored(l.apiKey, l.booking.id)).toMatchObject({ status: "CONFIRMED", startTime: l.booking.startTime });
  });

  it("a time taken meanwhile says so and shows that day's free times; a reason too long is asked to be shortened", async () => {
    const l = await linked(3 * 1440);
    const target = minutesFromNow(4 * 1440);
    await book(l.apiKey, bookingBody(l.serviceId, target));
    const page = await html(
      await postForm(`${l.page}/reschedule`, { start: new Date(target).toISOString(), tz: "UTC" }),
      409,
    );
    expect(textOf(page)).toContain("Sorry, that time was just taken.");
    expect(page).not.toContain(`value="${new Date(target).toISOString()}"`);
    const long = await html(await postForm(`${l.page}/cancel`, { reason: "x".repeat(501), tz: "UTC" }), 422);
    expect(textOf(long)).toContain("Shorten the reason to at most 500 characters.");
    expect(await html(await postForm(`${l.page}/reschedule`, { start: "later", tz: "UTC" }), 422)).toContain(
      "Choose a time to move to.",
    );
    expect(await stored(l.apiKey, l.booking.id)).toMatchObject({ status: "CONFIRMED", startTime: l.booking.startTime });
  });

  it("a move refused for the service's day limit or for changed hours says so, not that the time was taken", async () => {
    const l = await linked(3 * 1440, { limits: { perDay: 1 } });
    const full = at(5, "10:00");
    await book(l.apiKey, bookingBody(l.serviceId, full));
    const atLimit = await html(
      await postForm(`${l.page}/reschedule`, { start: full.replace("10:00", "12:00"), tz: "UTC" }),
      409,
    );
    expect(textOf(atLimit)).toContain("That day has all the bookings this service takes. Please choose another date.");
    expect(textOf(atLimit)).not.toContain("just taken");
    // The hours shrink after the page listed an evening time.
    const hours = [{ start: "00:00", end: "23:00" }];
    const week = Object.fromEntries(["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map((d) => [d, hours]));
    const patched = await api("PATCH", `/services/${l.serviceId}`, { key: l.apiKey, body: { weeklySchedule: week } });
    expect(patched.status).toBe(200);
    const closed = await html(await postForm(`${l.page}/reschedule`, { start: at(6, "23:30"), tz: "UTC" }), 409);
    expect(textOf(closed)).toContain("That time cannot be booked any more. Here are the times that are free now.");
    expect(await stored(l.apiKey, l.booking.id)).toMatchObject({ status: "CONFIRMED", startTime: l.booking.startTime });
  });
});

describe("security", () => {
  it("a dead or altered token is an HTML 404 for a browser (and the JSON 404 for a program)", async () => {
    const l = await linked(3 * 1440);
    const altered = `${l.page.slice(0, -1)}${l.page.endsWith("A") ? "B" : "A"}`;
    for (const path of [altered, "/api/v1/manage/bkg_x.y", `${altered}/cancel`]) {
      const res = path.endsWith("/cancel") ? await postForm(path, { tz: "UTC" }) : await getPage(path);
      const page = await html(res, 404);
      expect(textOf(page)).toContain("Page not found");
      expect(page).not.toContain("Grace");
    }
    expect((await viaLink("GET", altered.slice("/api/v1".length))).headers.get("Content-Type")).toMatch(
      /^application\/problem\+json/,
    );
  });

  it("a form posted from another site is refused and changes nothing", async () => {
    const l = await linked(3 * 1440);
    const res = await postForm(
      `${l.page}/cancel`,
      { tz: "UTC" },
      { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    );
    expect(textOf(await html(res, 403))).toContain("This form must be sent from the booking page itself.");
    expect((await stored(l.apiKey, l.booking.id)).status).toBe("CONFIRMED");
  });

  it("JSON calls are the API's as before: a JSON cancel is answered in JSON", async () => {
    const l = await linked(3 * 1440);
    const res = await viaLink("POST", `${l.page.slice("/api/v1".length)}/cancel`, { reason: "Busy" });
    expect(res.status).toBe(200);
    expect((await json(res)).status).toBe("CANCELLED");
  });
});
