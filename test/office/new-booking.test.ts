/**
 * The office's phone-in: each step a GET with the choices so far, the last a post that books
 * through the API's own create path (seen by the API, the member as the audit's actor); a time
 * taken meanwhile, who may book, cross-site posts, other businesses' customers, German.
 */
import { describe, expect, it } from "vitest";
import { api, createAccount, createCustomer, json } from "../support/api";
import { at, dayOf, plus } from "../support/bookings";
import { office } from "../support/members";
import { bookingOf, deskMember, deskSalon, page } from "../support/office";

const amp = (html: string) => html.replaceAll("&amp;", "&");

/** The phone-in's address with these choices. */
const step = (choices: Record<string, string>) => `/office/bookings/new?${new URLSearchParams(choices)}`;

/** How many bookings the business has, as the API counts them. */
const bookingCount = async (key: string) =>
  (await json(await api("GET", "/bookings?limit=1", { key }))).pagination.total;

describe("the phone-in", () => {
  it("walks service → person → time → new customer → notes and books what was chosen", async () => {
    const s = await deskSalon();
    const { cookie, id: memberId } = await deskMember(s, "frontdesk");
    const services = await page("/office/bookings/new", cookie);
    expect(services.status).toBe(200);
    expect(services.html).toContain(`href="/office/bookings/new?service=${s.cut}"`);
    expect(services.html).toContain("Colour");
    const people = await page(step({ service: s.cut }), cookie);
    expect(people.html).toContain("Anyone free");
    expect(amp(people.html)).toContain(`href="${step({ service: s.cut, person: s.providerIds[1] as string })}"`);
    const chosen = { service: s.cut, person: s.providerIds[1] as string, day: dayOf(2) };
    const times = await page(step(chosen), cookie);
    expect(times.html).toContain("2:00 PM");
    const offered = (hhmm: string) => `time=${encodeURIComponent(at(2, hhmm).replace("Z", ""))}`;
    expect(amp(times.html)).toContain(offered("14:00"));
    // Stylist 1 is booked at 11:00 (Their Customer): that time is not offered.
    expect(amp(times.html)).not.toContain(offered("11:00"));
    const time = `${at(2, "14:00")}/${plus(at(2, "14:00"), 30)}`;
    const customer = await page(step({ ...chosen, time }), cookie);
    expect(customer.html).toContain("Or a new customer");
    // The new customer's details are posted, never put in an address; posting them books nothing yet.
    expect(customer.html).toMatch(
      /<form method="post" action="\/office\/bookings\/new"><input type="hidden" name="step" value="customer"/,
    );
    const held = await bookingCount(s.apiKey);
    const enter = (fields: Record<string, string>) =>
      office("POST", "/office/bookings/new", { cookie, form: { ...fields, step: "customer" } });
    const bad = await enter({ ...chosen, time, name: "Phone Caller", email: "nope" });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("Enter an e-mail address.");
    const details = { ...chosen, time, name: "Phone Caller", email: "caller@example.com", phone: "+49 30 1234" };
    const notes = await enter(details);
    expect(notes.status).toBe(200);
    const notesHtml = await notes.text();
    expect(notesHtml).toContain("Phone Caller · caller@example.com");
    expect(notesHtml).toContain('action="/office/bookings/new"');
    expect(await bookingCount(s.apiKey)).toBe(held);
    const res = await office("POST", "/office/bookings/new", { cookie, form: { ...details, notes: "Called at 9" } });
    expect(res.status).toBe(303);
    const id = /\/office\/bookings\/(bkg_\w+)\?done=created$/.exec(res.headers.get("Location") ?? "")?.[1] as string;
    expect(id).toBeTruthy();
    const booking = await bookingOf(s.apiKey, id);
    expect(booking).toMatchObject({
      providerId: s.providerIds[1],
      customerName: "Phone Caller",
      customerEmail: "caller@example.com",
      notes: "Called at 9",
      status: "CONFIRMED",
    });
    expect(Date.parse(booking.startTime)).toBe(Date.parse(at(2, "14:00")));
    const audit = await json(await api("GET", `/audit-events?resourceId=${id}`, { key: s.apiKey }));
    expect(audit.data.at(-1)).toMatchObject({ action: "booking.created", actor: { type: "member", id: memberId } });
    expect((await page(res.headers.get("Location") as string, cookie)).html).toContain("The booking was made.");
  });

  it("books an existing customer found by the search, with anyone free", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "owner");
    const mine = await bookingOf(s.apiKey, s.mine.id);
    const chosen = {
      service: s.colour,
      person: "any",
      day: dayOf(2),
      time: `${at(2, "15:00")}/${plus(at(2, "15:00"), 30)}`,
    };
    const found = await page(step({ ...chosen, q: "mine cust" }), cookie);
    expect(found.html).toContain("Mine Customer");
    expect(amp(found.html)).toContain(`customer=${mine.customerId}`);
    const res = await office("POST", "/office/bookings/new", {
      cookie,
      form: { ...chosen, customer: mine.customerId },
    });
    expect(res.status).toBe(303);
    const id = /(bkg_\w+)/.exec(res.headers.get("Location") ?? "")?.[1] as string;
    const booking = await bookingOf(s.apiKey, id);
    expect(booking.customerId).toBe(mine.customerId);
    expect(s.providerIds).toContain(booking.providerId);
  });

  it("a double click on Book books once: both posts land on the same booking, even sent together", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "frontdesk");
    const mine = await bookingOf(s.apiKey, s.mine.id);
    // Anyone free at 16:00: either stylist could take a second booking of the same post.
    const chosen = {
      service: s.colour,
      person: "any",
      day: dayOf(2),
      time: `${at(2, "16:00")}/${plus(at(2, "16:00"), 30)}`,
      customer: mine.customerId,
    };
    const notes = await page(step(chosen), cookie);
    const attempt = /name="attempt" value="([^"]+)"/.exec(notes.html)?.[1] as string;
    expect(attempt).toMatch(/^[0-9a-f-]{36}$/);
    const before = await bookingCount(s.apiKey);
    const post = () => office("POST", "/office/bookings/new", { cookie, form: { ...chosen, attempt, notes: "Twice" } });
    const [first, second] = await Promise.all([post(), post()]);
    const third = await post();
    for (const res of [first, second, third]) expect(res.status).toBe(303);
    const where = new Set([first, second, third].map((res) => res.headers.get("Location")));
    expect(where.size).toBe(1);
    expect(await bookingCount(s.apiKey)).toBe(before + 1);
    // The same form sent again with other notes is this attempt's still: it says so and books nothing.
    const changed = await office("POST", "/office/bookings/new", {
      cookie,
      form: { ...chosen, attempt, notes: "Changed my mind" },
    });
    expect(changed.status).toBe(422);
    expect(await changed.text()).toContain("This form has already made its booking");
    expect(await bookingCount(s.apiKey)).toBe(before + 1);
    // A fresh notes step is a new attempt: the same choices book again.
    const again = /name="attempt" value="([^"]+)"/.exec((await page(step(chosen), cookie)).html)?.[1];
    expect(again).not.toBe(attempt);
  });

  it("a time taken meanwhile is refused: the day's times again with the reason, nothing booked", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "frontdesk");
    const before = await bookingCount(s.apiKey);
    // Stylist 0 has Mine Customer at 10:00.
    const res = await office("POST", "/office/bookings/new", {
      cookie,
      form: {
        service: s.cut,
        person: s.providerIds[0] as string,
        day: dayOf(2),
        time: `${at(2, "10:00")}/${plus(at(2, "10:00"), 30)}`,
        name: "Late Caller",
        email: "late@example.com",
      },
    });
    expect(res.status).toBe(409);
    const html = await res.text();
    expect(html).toContain("That time could not be booked");
    expect(html).toContain("Show free times");
    expect(html).toContain("9:00 AM");
    expect(await bookingCount(s.apiKey)).toBe(before);
  });

  it("staff may not book here (403 page); a cross-site post is refused; another business's customer is a 404", async () => {
    const s = await deskSalon();
    const staff = await deskMember(s, "staff");
    expect((await page("/office/bookings/new", staff.cookie)).status).toBe(403);
    const form = {
      service: s.cut,
      person: "any",
      day: dayOf(2),
      time: `${at(2, "13:00")}/${plus(at(2, "13:00"), 30)}`,
      name: "Someone",
      email: "someone@example.com",
    };
    const before = await bookingCount(s.apiKey);
    expect((await office("POST", "/office/bookings/new", { cookie: staff.cookie, form })).status).toBe(403);
    const { cookie } = await deskMember(s, "owner");
    const cross = await office("POST", "/office/bookings/new", {
      cookie,
      form,
      headers: { Origin: "https://evil.example" },
    });
    expect(cross.status).toBe(403);
    const other = await createAccount("Elsewhere");
    const stranger = await createCustomer(other.apiKey, { name: "Stranger" });
    const { name: _n, email: _e, ...rest } = form;
    const foreign = await office("POST", "/office/bookings/new", { cookie, form: { ...rest, customer: stranger.id } });
    expect(foreign.status).toBe(404);
    expect(await bookingCount(s.apiKey)).toBe(before);
  });

  it("asks the service's questions on the last step: a required one left out is refused, answered it books", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "frontdesk");
    const patched = await api("PATCH", `/services/${s.cut}`, {
      key: s.apiKey,
      body: { questions: [{ key: "allergies", label: "Any allergies?", type: "text", required: true }] },
    });
    expect(patched.status).toBe(200);
    const form = {
      service: s.cut,
      person: "any",
      day: dayOf(2),
      time: `${at(2, "16:00")}/${plus(at(2, "16:00"), 30)}`,
      name: "Asked Caller",
      email: "asked@example.com",
    };
    expect((await page(step(form), cookie)).html).toContain("Any allergies?");
    const before = await bookingCount(s.apiKey);
    const missing = await office("POST", "/office/bookings/new", { cookie, form: { ...form, notes: "kept" } });
    expect(missing.status).toBe(422);
    const html = await missing.text();
    expect(html).toContain("Answer this question.");
    expect(html).toContain(">kept</textarea>");
    expect(await bookingCount(s.apiKey)).toBe(before);
    const res = await office("POST", "/office/bookings/new", { cookie, form: { ...form, "q.allergies": "None" } });
    expect(res.status).toBe(303);
    const id = /(bkg_\w+)/.exec(res.headers.get("Location") ?? "")?.[1] as string;
    expect((await bookingOf(s.apiKey, id)).answers).toEqual({ allergies: "None" });
  });

  it("speaks German", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "frontdesk");
    const { html } = await page(step({ service: s.cut }), cookie, { "Accept-Language": "de" });
    expect(html).toContain("Neue Buchung");
    expect(html).toContain("Wer frei ist");
  });
});
