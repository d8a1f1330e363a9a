/**
 * The booking flow's form posts: a time held, details checked, the booking made, each through the
 * page's one path; foreign posts, a honeypot, wrong details, a taken time, a hold run out and a
 * wrong token each get a page that says what to do, and change nothing.
 */
import { describe, expect, it } from "vitest";
import { api, json } from "../support/api";
import { at, bookingBody, d1Bookings, postBooking, slotAt } from "../support/bookings";
import { expireHold } from "../support/fixtures";
import { getPage, html, pageBusiness, postForm, textOf } from "../support/public";
import { detailsFields, holdThroughPage } from "./fixtures";

const questions = [
  { key: "allergies", label: "Any allergies?", type: "text", required: true },
  { key: "first", label: "First visit?", type: "boolean", required: true },
  { key: "length", label: "Hair length", type: "choice", required: false, choices: ["Short", "Long"] },
];

const holdStatus = async (apiKey: string, id: string) =>
  (await json(await api("GET", `/holds/${id}`, { key: apiKey }))).status;

describe("happy", () => {
  it("a time held, details sent, the booking made: the confirmation, its .ics and its manage link", async () => {
    const f = await pageBusiness({ questions });
    const start = at(3, "10:00");
    const held = await holdThroughPage(f.slug, f.serviceId, start);
    const details = await html(await getPage(held.path));
    expect(details).toContain('data-expires="');
    for (const label of ["Name", "E-mail", "Any allergies?", "First visit?", "Hair length"])
      expect(textOf(details)).toContain(label);
    expect(await slotAt(f.apiKey, f.serviceId, start)).toMatchObject({ held: 1 });
    const fields = detailsFields(held, { "q.allergies": "None", "q.first": "yes", "q.length": "Long", notes: "Hi" });
    const res = await postForm(`/book/${f.slug}/book`, fields);
    expect(res.status).toBe(303);
    const location = res.headers.get("Location") as string;
    expect(location).toMatch(new RegExp(`^/book/${f.slug}/booked/bkg_[0-9a-z]{26}\\.[A-Za-z0-9_-]{43}\\?`));
    const [booking] = await d1Bookings(f.businessId);
    expect(booking).toMatchObject({
      startTime: new Date(start).toISOString(),
      customerEmail: fields.email,
      notes: "Hi",
      status: "CONFIRMED",
    });
    expect((await json(await api("GET", `/bookings/${booking?.id}`, { key: f.apiKey }))).answers).toEqual({
      allergies: "None",
      first: true,
      length: "Long",
    });
    const page = await html(await getPage(location));
    expect(page).toContain(`data-booking-id="${booking?.id}"`);
    expect(textOf(page)).toContain("You are booked");
    const manageUrl = (await json(await api("GET", `/bookings/${booking?.id}`, { key: f.apiKey }))).manageUrl;
    expect(page).toContain(`href="${manageUrl}"`);
    const ics = await getPage(`${location.split("?")[0]}/booking.ics`);
    expect(ics.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    const text = await ics.text();
    expect(text).toContain(`UID:${booking?.id}`);
    expect(text).toContain(`DTSTART:${start.replaceAll(/[-:]/g, "")}`);
    expect(text.replaceAll("\r\n ", "")).toContain(`URL:${manageUrl}`);
  });
});

describe("error", () => {
  it("details that are wrong come back at their fields, with what was typed; nothing is booked", async () => {
    const f = await pageBusiness({ questions });
    const held = await holdThroughPage(f.slug, f.serviceId, at(3, "10:00"));
    const fields = detailsFields(held, { name: "  ", email: "ada@", phone: "call me", "q.length": "Purple" });
    const page = await html(await postForm(`/book/${f.slug}/book`, fields), 422);
    const text = textOf(page);
    for (const fix of [
      "Enter your name",
      "Enter an e-mail address such as name@example.com.",
      "Enter a phone number",
      "Answer this question.",
      "Choose one of the options.",
    ])
      expect(text).toContain(fix);
    expect(page).toMatch(/id="f-email"[^>]*aria-invalid="true"[^>]*aria-describedby="f-email-err"/);
    expect(page).toContain('value="ada@"');
    expect(await d1Bookings(f.businessId)).toEqual([]);
    expect(await holdStatus(f.apiKey, held.hold)).toBe("HELD");
  });

  it("a time taken meanwhile is a clear message and fresh times, not an error", async () => {
    const f = await pageBusiness();
    const start = at(3, "10:00");
    const before = await html(await getPage(`/book/${f.slug}?service=${f.serviceId}&day=${start.slice(0, 10)}&tz=UTC`));
    expect(before).toContain(`value="${new Date(start).toISOString()}"`);
    expect((await postBooking(f.apiKey, bookingBody(f.serviceId, start))).status).toBe(201);
    const res = await postForm(`/book/${f.slug}/hold`, {
      service: f.serviceId,
      start: new Date(start).toISOString(),
      tz: "UTC",
    });
    const page = await html(res, 409);
    expect(textOf(page)).toContain("Sorry, that time was just taken. Here are the times that are still free.");
    expect(page).toContain('role="alert"');
    expect(page).not.toContain(`value="${new Date(start).toISOString()}"`);
    expect(page).toContain(`value="${new Date(Date.parse(start) + 30 * 60_000).toISOString()}"`);
  });

  it("a hold that ran out before the details were sent: fresh times, nothing booked", async () => {
    const f = await pageBusiness();
    const held = await holdThroughPage(f.slug, f.serviceId, at(3, "10:00"));
    await expireHold(f.businessId, f.serviceId, held.hold);
    const page = await html(await postForm(`/book/${f.slug}/book`, detailsFields(held)), 409);
    expect(textOf(page)).toContain("Your hold has run out");
    expect(await d1Bookings(f.businessId)).toEqual([]);
    expect(textOf(await html(await getPage(held.path), 409))).toContain("Your hold has run out");
  });

  it("a time that is not a time, or not on the rules, is a page that says to choose one listed", async () => {
    const f = await pageBusiness();
    const bad = await html(
      await postForm(`/book/${f.slug}/hold`, { service: f.serviceId, start: "soon", tz: "UTC" }),
      422,
    );
    expect(textOf(bad)).toContain("Choose one of the times listed.");
    const past = await html(
      await postForm(`/book/${f.slug}/hold`, { service: f.serviceId, start: at(-1, "10:00"), tz: "UTC" }),
      422,
    );
    expect(textOf(past)).toContain("That time cannot be booked any more.");
  });

  it("a fourth hold of one address on one service says to finish one first", async () => {
    const f = await pageBusiness();
    for (const time of ["10:00", "10:30", "11:00"])
      await holdThroughPage(f.slug, f.serviceId, at(3, time), {}, "203.0.113.40");
    const res = await postForm(
      `/book/${f.slug}/hold`,
      { service: f.serviceId, start: at(3, "11:30"), tz: "UTC" },
      {},
      "203.0.113.40",
    );
    expect(textOf(await html(res, 409))).toContain("You are already holding 3 times of this service.");
  });

  it("a hold past the page holds' share of a day says the day is being held by others, not that the visitor holds 3", async () => {
    const day = [{ start: "09:00", end: "11:00" }];
    const f = await pageBusiness({
      weeklySchedule: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day },
    });
    await holdThroughPage(f.slug, f.serviceId, at(3, "09:00"), {}, "203.0.113.41");
    await holdThroughPage(f.slug, f.serviceId, at(3, "09:30"), {}, "203.0.113.42");
    const res = await postForm(
      `/book/${f.slug}/hold`,
      { service: f.serviceId, start: at(3, "10:00"), tz: "UTC" },
      {},
      "203.0.113.43",
    );
    const text = textOf(await html(res, 409));
    expect(text).toContain("Other visitors are holding many times of this day right now.");
    expect(text).not.toContain("You are already holding");
    expect((await slotAt(f.apiKey, f.serviceId, at(3, "10:00")))?.held).toBe(0);
  });
});

describe("security", () => {
  it("a form posted from another site is refused with a page, and holds nothing", async () => {
    const f = await pageBusiness();
    const start = at(3, "10:00");
    const form = { service: f.serviceId, start, tz: "UTC" };
    for (const headers of [
      { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
      { Origin: "http://api.test", "Sec-Fetch-Site": "same-site" },
      // An older browser: no Sec-Fetch-Site, only the Origin.
      { Origin: "https://evil.example", "Sec-Fetch-Site": "" },
    ]) {
      const res = await postForm(`/book/${f.slug}/hold`, form, headers);
      expect(textOf(await html(res, 403))).toContain("This form must be sent from the booking page itself.");
    }
    expect(await slotAt(f.apiKey, f.serviceId, start)).toMatchObject({ held: 0, bookable: true });
    // A page with no-referrer sends Origin: null, and Sec-Fetch-Site says where it came from.
    expect(
      (await postForm(`/book/${f.slug}/hold`, form, { Origin: "null", "Sec-Fetch-Site": "same-origin" })).status,
    ).toBe(303);
  });

  // The one rule hono/csrf cannot express (docs/businesses.md): it refuses a post that names no site.
  it("a post that names no site at all (no Origin, no Sec-Fetch-Site: no browser's form) is taken", async () => {
    const f = await pageBusiness();
    const start = at(3, "10:00");
    const form = { service: f.serviceId, start, tz: "UTC" };
    const res = await postForm(`/book/${f.slug}/hold`, form, { Origin: "", "Sec-Fetch-Site": "" });
    expect(res.status).toBe(303);
    expect(await slotAt(f.apiKey, f.serviceId, start)).toMatchObject({ held: 1 });
  });

  it("the honeypot filled in: a page that says so, nothing booked, the hold still kept", async () => {
    const f = await pageBusiness();
    const held = await holdThroughPage(f.slug, f.serviceId, at(3, "10:00"));
    const page = await html(
      await postForm(`/book/${f.slug}/book`, detailsFields(held, { website: "http://spam.example" })),
      422,
    );
    expect(textOf(page)).toContain("A field meant to stay empty was filled in");
    expect(await d1Bookings(f.businessId)).toEqual([]);
    expect(await holdStatus(f.apiKey, held.hold)).toBe("HELD");
  });

  it("a wrong hold token is a 404 page, on the details page and its post; the hold stays as it was", async () => {
    const f = await pageBusiness();
    const held = await holdThroughPage(f.slug, f.serviceId, at(3, "10:00"));
    const other = await holdThroughPage(f.slug, f.serviceId, at(3, "11:00"));
    await html(await getPage(held.path.replace(held.token, other.token)), 404);
    await html(await postForm(`/book/${f.slug}/book`, detailsFields({ hold: held.hold, token: other.token })), 404);
    expect(await d1Bookings(f.businessId)).toEqual([]);
    expect(await holdStatus(f.apiKey, held.hold)).toBe("HELD");
  });

  it("the confirmation of one business's booking is a 404 on another's page", async () => {
    const a = await pageBusiness();
    const b = await pageBusiness();
    const held = await holdThroughPage(a.slug, a.serviceId, at(3, "10:00"));
    const location = (await postForm(`/book/${a.slug}/book`, detailsFields(held))).headers.get("Location") as string;
    await html(await getPage(location.replace(`/book/${a.slug}/`, `/book/${b.slug}/`)), 404);
    await html(
      await getPage(location.replace(/\.[A-Za-z0-9_-]{43}\?/, ".AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA?")),
      404,
    );
  });
});
