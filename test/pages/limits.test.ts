/**
 * The booking page's answers to the service's booking limits: a customer at their limit is told
 * so at the e-mail field (not that the time was taken), and the time their refused attempt held
 * is free again at once; a day at the service's limit says the day is full.
 */
import { describe, expect, it } from "vitest";
import { api, json } from "../support/api";
import { at, book, bookingBody, d1Bookings, slotAt } from "../support/bookings";
import { getPage, html, pageBusiness, postForm, textOf } from "../support/public";
import { detailsFields, holdThroughPage } from "./fixtures";

const holdStatus = async (apiKey: string, id: string) =>
  (await json(await api("GET", `/holds/${id}`, { key: apiKey }))).status;

const atLimit = "You already have as many upcoming bookings of this service as one e-mail address may have.";

describe("error", () => {
  it("a customer at their booking limit is told so at the e-mail field, and the time they picked is free again", async () => {
    const f = await pageBusiness({ maxActivePerCustomer: 1 });
    const email = "ada@example.com";
    const first = await holdThroughPage(f.slug, f.serviceId, at(3, "10:00"));
    expect((await postForm(`/book/${f.slug}/book`, detailsFields(first, { email }))).status).toBe(303);
    const start = new Date(at(4, "10:00")).toISOString();
    const second = await holdThroughPage(f.slug, f.serviceId, start);
    const page = await html(await postForm(`/book/${f.slug}/book`, detailsFields(second, { email })), 409);
    const text = textOf(page);
    expect(text).toContain(atLimit);
    expect(text).not.toContain("was just taken");
    expect(page).toMatch(/id="f-email"[^>]*aria-invalid="true"[^>]*aria-describedby="f-email-err"/);
    expect(page).toContain(`value="${email}"`);
    // The refused attempt holds nothing: the time is on the page's free times again.
    expect(await holdStatus(f.apiKey, second.hold)).toBe("RELEASED");
    expect(await slotAt(f.apiKey, f.serviceId, start)).toMatchObject({ held: 0, bookable: true });
    const times = await html(await getPage(`/book/${f.slug}?service=${f.serviceId}&day=${start.slice(0, 10)}&tz=UTC`));
    expect(times).toContain(`value="${start}"`);
    expect(await d1Bookings(f.businessId)).toHaveLength(1);
    // The same form sent under another person's address holds the time again and books it.
    const resent = Object.fromEntries(
      [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    expect(resent).toMatchObject({ service: f.serviceId, start });
    const other = { ...resent, name: "Grace Hopper", email: "grace@example.com", website: "" };
    expect((await postForm(`/book/${f.slug}/book`, other)).status).toBe(303);
    expect((await d1Bookings(f.businessId)).map((b) => b.startTime).sort()).toEqual([
      new Date(at(3, "10:00")).toISOString(),
      start,
    ]);
  });

  it("the same customer sending the released form again is refused again, and still holds nothing", async () => {
    const f = await pageBusiness({ maxActivePerCustomer: 1 });
    await book(f.apiKey, bookingBody(f.serviceId, at(3, "10:00"), { customerEmail: "ada@example.com" }));
    const start = new Date(at(4, "10:00")).toISOString();
    const held = await holdThroughPage(f.slug, f.serviceId, start);
    const fields = { service: f.serviceId, start, tz: "UTC", name: "Ada", email: "ADA@example.com", website: "" };
    expect(textOf(await html(await postForm(`/book/${f.slug}/book`, { ...fields, ...held }), 409))).toContain(atLimit);
    expect(textOf(await html(await postForm(`/book/${f.slug}/book`, fields), 409))).toContain(atLimit);
    expect(await slotAt(f.apiKey, f.serviceId, start)).toMatchObject({ held: 0, bookable: true });
    expect(await d1Bookings(f.businessId)).toHaveLength(1);
  });

  it("a time on a day at the service's day limit says that day is full, not that the time was taken", async () => {
    const f = await pageBusiness({ limits: { perDay: 1 } });
    await book(f.apiKey, bookingBody(f.serviceId, at(3, "10:00")));
    const res = await postForm(`/book/${f.slug}/hold`, { service: f.serviceId, start: at(3, "11:00"), tz: "UTC" });
    const text = textOf(await html(res, 409));
    expect(text).toContain("That day has all the bookings this service takes. Please choose another date.");
    expect(text).not.toContain("was just taken");
  });
});
