/**
 * The office's phone-in of a visit: more services added after the first, each with its person;
 * the day's free times are the visit's (each service, back to back, a bookable slot of its own
 * availability), and the post books through the API's own visit path (`POST /appointments`), all or
 * none, once per attempt, the member as the audit's actor. Who may, and the bound on services.
 */
import { describe, expect, it } from "vitest";
import { api, json } from "../support/api";
import { at, dayOf, plus } from "../support/bookings";
import { office } from "../support/members";
import { bookingOf, deskMember, deskSalon, page } from "../support/office";

const amp = (html: string) => html.replaceAll("&amp;", "&");

/** The phone-in's address with these choices. */
const step = (choices: Record<string, string>) => `/office/bookings/new?${new URLSearchParams(choices)}`;

/** How many bookings the business has, as the API counts them. */
const bookingCount = async (key: string) =>
  (await json(await api("GET", "/bookings?limit=1", { key }))).pagination.total;

/** A time link's query value for a visit starting at `hhmm` the day after tomorrow, `minutes` long. */
const offered = (hhmm: string, minutes: number) =>
  `time=${encodeURIComponent(`${at(2, hhmm).replace("Z", ".000Z")}/${plus(at(2, hhmm), minutes).replace("Z", ".000Z")}`)}`;

describe("the phone-in of a visit", () => {
  it("adds a second service with its person, offers the visit's times, and books both back to back", async () => {
    const s = await deskSalon();
    const { cookie, id: memberId } = await deskMember(s, "frontdesk");
    const stylist = s.providerIds[1] as string;
    const first = { service: s.cut, person: stylist, day: dayOf(2) };
    const times = await page(step(first), cookie);
    expect(amp(times.html)).toContain(`add=1&day=${dayOf(2)}`);
    expect(times.html).toContain("Add another service");
    const adding = await page(step({ ...first, add: "1" }), cookie);
    expect(adding.html).toContain("The next service of the visit");
    expect(amp(adding.html)).toContain(`more=${s.colour}&day=`);
    const person = await page(step({ ...first, more: s.colour }), cookie);
    expect(person.html).toContain("Anyone free");
    expect(amp(person.html)).toContain(`more=${encodeURIComponent(`${s.colour}:${stylist}`)}`);
    const visit = { ...first, more: `${s.colour}:${stylist}` };
    const visitTimes = amp((await page(step(visit), cookie)).html);
    expect(visitTimes).toContain("Then");
    // Stylist 1 has Their Customer at 11:00: a cut at 10:30 is free, but not one followed by a colour.
    expect(amp(times.html)).toContain("10%3A30%3A00");
    expect(visitTimes).toContain(offered("10:00", 60));
    expect(visitTimes).not.toContain(offered("10:30", 60));
    expect(visitTimes).toContain(offered("14:00", 60));
    // The times are the API's: each service's own availability is bookable at its back-to-back time.
    for (const [service, startTime] of [
      [s.cut, at(2, "14:00")],
      [s.colour, at(2, "14:30")],
    ] as const) {
      const q = `from=${startTime}&to=${plus(startTime, 30)}&providerId=${stylist}`;
      const slots = (await json(await api("GET", `/services/${service}/availability?${q}`, { key: s.apiKey }))).slots;
      expect(slots[0]).toMatchObject({ bookable: true });
    }
    const chosen = { ...visit, time: `${at(2, "14:00")}/${plus(at(2, "14:00"), 60)}` };
    const notes = await page(step({ ...chosen, name: "Visit Caller", email: "visit@example.com" }), cookie);
    const attempt = /name="attempt" value="([^"]+)"/.exec(notes.html)?.[1] as string;
    const before = await bookingCount(s.apiKey);
    const res = await office("POST", "/office/bookings/new", {
      cookie,
      form: { ...chosen, name: "Visit Caller", email: "visit@example.com", notes: "Cut then colour", attempt },
    });
    expect(res.status).toBe(303);
    const location = res.headers.get("Location") ?? "";
    const id = /\/office\/bookings\/(bkg_\w+)\?done=visit$/.exec(location)?.[1] as string;
    expect(id).toBeTruthy();
    expect(await bookingCount(s.apiKey)).toBe(before + 2);
    const { appointmentId } = await bookingOf(s.apiKey, id);
    const got = await json(await api("GET", `/appointments/${appointmentId}`, { key: s.apiKey }));
    expect(got.bookings).toHaveLength(2);
    const [cut, colour] = got.bookings;
    expect(cut).toMatchObject({ id, serviceId: s.cut, providerId: stylist, customerName: "Visit Caller" });
    expect(colour).toMatchObject({ serviceId: s.colour, providerId: stylist, customerEmail: "visit@example.com" });
    expect(colour.customerId).toBe(cut.customerId);
    expect(Date.parse(cut.startTime)).toBe(Date.parse(at(2, "14:00")));
    expect(Date.parse(colour.startTime)).toBe(Date.parse(cut.endTime));
    expect(colour.notes).toBe("Cut then colour");
    for (const booking of got.bookings) {
      const audit = await json(await api("GET", `/audit-events?resourceId=${booking.id}`, { key: s.apiKey }));
      expect(audit.data.at(-1)).toMatchObject({ action: "booking.created", actor: { type: "member", id: memberId } });
    }
    // The booking's page says the visit was booked and lists its bookings, each a link.
    const shown = await page(location, cookie);
    expect(shown.html).toContain("The visit was booked");
    expect(shown.html).toContain("Part of a visit");
    expect(shown.html).toContain(`href="/office/bookings/${colour.id}"`);
    // The day shows both.
    const day = (await page(`/office/day/${dayOf(2)}`, cookie)).html;
    expect(day).toContain(`/office/bookings/${cut.id}`);
    expect(day).toContain(`/office/bookings/${colour.id}`);
  });

  it("a visit time no longer free is refused in the desk's words, naming the service; nothing is booked", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "owner");
    const before = await bookingCount(s.apiKey);
    const stylist = s.providerIds[1] as string;
    const form = {
      service: s.cut,
      person: stylist,
      more: `${s.colour}:${stylist}`,
      day: dayOf(2),
      // The colour would start at 11:00, when Stylist 1 has Their Customer.
      time: `${at(2, "10:30")}/${plus(at(2, "10:30"), 60)}`,
      name: "Late Caller",
      email: "late@example.com",
    };
    const res = await office("POST", "/office/bookings/new", { cookie, form });
    expect(res.status).toBe(409);
    const html = await res.text();
    expect(html).toContain("That time could not be booked");
    expect(html).toContain("Service 2 (Colour) could not be booked then: nothing was booked.");
    expect(html).toContain("Show free times");
    expect(await bookingCount(s.apiKey)).toBe(before);
    // In German too.
    const de = await office("POST", "/office/bookings/new", { cookie, headers: { "Accept-Language": "de" }, form });
    expect(await de.text()).toContain("Leistung 2 (Colour) ließ sich zu dieser Zeit nicht buchen");
    expect(await bookingCount(s.apiKey)).toBe(before);
  });

  it("a double click books the visit once: every post lands on the same booking", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "frontdesk");
    const mine = await bookingOf(s.apiKey, s.mine.id);
    const chosen = {
      service: s.cut,
      person: "any",
      more: `${s.colour}:any`,
      day: dayOf(2),
      time: `${at(2, "15:00")}/${plus(at(2, "15:00"), 60)}`,
      customer: mine.customerId,
    };
    const notes = await page(step(chosen), cookie);
    const attempt = /name="attempt" value="([^"]+)"/.exec(notes.html)?.[1] as string;
    expect(attempt).toMatch(/^[0-9a-f-]{36}$/);
    const before = await bookingCount(s.apiKey);
    const post = () => office("POST", "/office/bookings/new", { cookie, form: { ...chosen, attempt } });
    const [one, two] = await Promise.all([post(), post()]);
    const three = await post();
    for (const res of [one, two, three]) expect(res.status).toBe(303);
    expect(new Set([one, two, three].map((res) => res.headers.get("Location"))).size).toBe(1);
    expect(await bookingCount(s.apiKey)).toBe(before + 2);
  });

  it("asks each service's own questions, named by its service; a required one left out books nothing", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "frontdesk");
    const question = { key: "shade", label: "Which shade?", type: "text", required: true };
    expect(
      (await api("PATCH", `/services/${s.colour}`, { key: s.apiKey, body: { questions: [question] } })).status,
    ).toBe(200);
    const form = {
      service: s.cut,
      person: "any",
      more: `${s.colour}:any`,
      day: dayOf(2),
      time: `${at(2, "16:00")}/${plus(at(2, "16:00"), 60)}`,
      name: "Asked Caller",
      email: "asked@example.com",
    };
    const notes = (await page(step(form), cookie)).html;
    expect(notes).toContain("<legend>Colour</legend>");
    expect(notes).toContain('name="q2.shade"');
    const before = await bookingCount(s.apiKey);
    const missing = await office("POST", "/office/bookings/new", { cookie, form: { ...form, notes: "kept" } });
    expect(missing.status).toBe(422);
    const html = await missing.text();
    expect(html).toContain("Answer this question.");
    expect(html).toContain(">kept</textarea>");
    expect(await bookingCount(s.apiKey)).toBe(before);
    const res = await office("POST", "/office/bookings/new", { cookie, form: { ...form, "q2.shade": "Auburn" } });
    expect(res.status).toBe(303);
    const id = /(bkg_\w+)/.exec(res.headers.get("Location") ?? "")?.[1] as string;
    const { appointmentId } = await bookingOf(s.apiKey, id);
    const got = await json(await api("GET", `/appointments/${appointmentId}`, { key: s.apiKey }));
    expect(got.bookings.map((b: { answers: unknown }) => b.answers)).toEqual([{}, { shade: "Auburn" }]);
  });

  it("staff may not book a visit, not with another person nor at all; the services are bounded by the API's limit", async () => {
    const s = await deskSalon();
    const staff = await deskMember(s, "staff");
    const form = {
      service: s.cut,
      person: s.providerIds[1] as string,
      more: `${s.colour}:${s.providerIds[1]}`,
      day: dayOf(2),
      time: `${at(2, "13:00")}/${plus(at(2, "13:00"), 60)}`,
      name: "Someone",
      email: "someone@example.com",
    };
    const before = await bookingCount(s.apiKey);
    expect((await page(step(form), staff.cookie)).status).toBe(403);
    expect((await office("POST", "/office/bookings/new", { cookie: staff.cookie, form })).status).toBe(403);
    const own = { ...form, person: s.providerIds[0] as string, more: `${s.colour}:${s.providerIds[0]}` };
    expect((await office("POST", "/office/bookings/new", { cookie: staff.cookie, form: own })).status).toBe(403);
    expect(await bookingCount(s.apiKey)).toBe(before);
    // Five services in all (the API's most): no sixth is offered; a longer list in the address is left out.
    const { cookie } = await deskMember(s, "frontdesk");
    const four = Array.from({ length: 4 }, () => `${s.colour}:any`).join(",");
    const full = await page(step({ service: s.cut, person: "any", more: four, day: dayOf(2) }), cookie);
    expect(full.status).toBe(200);
    expect(full.html.match(/<dt>Then<\/dt>/g)).toHaveLength(4);
    expect(full.html).not.toContain("Add another service");
    const five = `${four},${s.colour}:any`;
    const over = await page(step({ service: s.cut, person: "any", more: five, day: dayOf(2) }), cookie);
    expect(over.html).not.toContain("<dt>Then</dt>");
    expect(over.html).toContain("Add another service");
  });
});
