/**
 * Form bodies the pages cannot read — a multipart body cut short, a charset other than UTF-8, a
 * body that is not a form — on every form route (the flow's hold and book, the manage link's
 * cancel and reschedule): a 400 or 415 page that says to send the form again, never a 500, and
 * nothing changed.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, json, origin } from "../support/api";
import { at, d1Bookings, slotAt } from "../support/bookings";
import { bookWithLink, clinic, minutesFromNow } from "../support/manage-links";
import { browser, html, pageBusiness, textOf } from "../support/public";
import { holdThroughPage } from "./fixtures";

/** A same-origin post of a raw body with its own Content-Type, as a browser's page would send it. */
const postRaw = (path: string, contentType: string, body: string) =>
  exports.default.fetch(
    new Request(`${origin}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        ...browser,
        "Content-Type": contentType,
        Origin: origin,
        "Sec-Fetch-Site": "same-origin",
        "CF-Connecting-IP": "198.51.100.31",
      },
      body,
    }),
  );

/** The bodies, each with the status its page answers, for a form whose fields are `fields`. */
function unreadable(fields: Record<string, string>) {
  const form = new URLSearchParams(fields).toString();
  const [name, value] = Object.entries(fields)[0] as [string, string];
  return [
    {
      what: "a multipart body cut short",
      status: 400,
      type: "multipart/form-data; boundary=XyZ",
      body: `--XyZ\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}`,
      says: "The form arrived incomplete",
    },
    {
      what: "a urlencoded body in latin1",
      status: 415,
      type: "application/x-www-form-urlencoded; charset=latin1",
      body: form,
      says: "The form was not sent as the booking page sends it",
    },
  ];
}

const holdStatus = async (apiKey: string, id: string) =>
  (await json(await api("GET", `/holds/${id}`, { key: apiKey }))).status;

describe("error", () => {
  it("choosing a time with a body the page cannot read: a 400 or 415 page in the business's look, nothing held", async () => {
    const f = await pageBusiness();
    const start = at(3, "10:00");
    for (const bad of unreadable({ service: f.serviceId, start, tz: "UTC" })) {
      const page = await html(await postRaw(`/book/${f.slug}/hold`, bad.type, bad.body), bad.status);
      expect(textOf(page), bad.what).toContain(bad.says);
      expect(textOf(page), bad.what).toContain("Page Salon");
    }
    // A body that is no form at all.
    const jsonBody = await html(await postRaw(`/book/${f.slug}/hold`, "application/json", "{}"), 415);
    expect(textOf(jsonBody)).toContain("The form was not sent as the booking page sends it");
    expect(await slotAt(f.apiKey, f.serviceId, start)).toMatchObject({ held: 0, bookable: true });
    // UTF-8 named in any case is read as before.
    const form = new URLSearchParams({ service: f.serviceId, start, tz: "UTC" }).toString();
    const utf8 = await postRaw(`/book/${f.slug}/hold`, "application/x-www-form-urlencoded; charset=UTF-8", form);
    expect(utf8.status).toBe(303);
  });

  it("sending the details with a body the page cannot read: a 400 or 415 page, nothing booked, the hold kept", async () => {
    const f = await pageBusiness();
    const held = await holdThroughPage(f.slug, f.serviceId, at(3, "10:00"));
    const fields = { hold: held.hold, token: held.token, tz: "UTC", name: "Ada", email: "ada@example.com" };
    for (const bad of unreadable(fields)) {
      const page = await html(await postRaw(`/book/${f.slug}/book`, bad.type, bad.body), bad.status);
      expect(textOf(page), bad.what).toContain(bad.says);
      expect(textOf(page), bad.what).toContain("Page Salon");
    }
    expect(await d1Bookings(f.businessId)).toEqual([]);
    expect(await holdStatus(f.apiKey, held.hold)).toBe("HELD");
  });

  it("cancelling or moving by the manage link with a body the page cannot read: a 400 or 415 page in the business's look, the booking as it was", async () => {
    const c = await clinic();
    // No booking page: the link still wears the business's look.
    const look = { bookingPage: { enabled: false, title: "Hopper Dental", accentColor: "#0a7c59" } };
    expect((await api("PATCH", "/business", { key: c.apiKey, body: look })).status).toBe(200);
    const { booking, path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(3 * 1440));
    const link = `/api/v1${path}`;
    const target = new Date(minutesFromNow(4 * 1440)).toISOString();
    for (const [action, fields] of [
      ["cancel", { reason: "Busy", tz: "UTC" }],
      ["reschedule", { start: target, tz: "UTC" }],
    ] as const) {
      for (const bad of unreadable(fields)) {
        const page = await html(await postRaw(`${link}/${action}`, bad.type, bad.body), bad.status);
        expect(textOf(page), `${action}: ${bad.what}`).toContain(bad.says);
        // The business's title and colour, and "Start again" leads back to the link's page.
        expect(textOf(page), `${action}: ${bad.what}`).toContain("Hopper Dental");
        expect(page, `${action}: ${bad.what}`).toContain("--accent:#0a7c59");
        expect(page).toMatch(new RegExp(`href="${link.replaceAll(".", "\\.")}\\?[^"]*"[^>]*>Start again`));
      }
    }
    const stored = await json(await api("GET", `/bookings/${booking.id}`, { key: c.apiKey }));
    expect(stored).toMatchObject({ status: "CONFIRMED", startTime: booking.startTime });
  });
});
