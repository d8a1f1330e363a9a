/** POST /public/{slug}/bookings: a page's hold turned into the booking, only with its token. */
import { describe, expect, it } from "vitest";
import { api, json, problem, validationError } from "../../support/api";
import { at, d1Bookings, slotAt } from "../../support/bookings";
import { hold as apiHold, expireHold } from "../../support/fixtures";
import { linkPath, viaLink } from "../../support/manage-links";
import { customer, heldOnPage, pageBusiness, pageWithProviders, publicBooking, viaPage } from "../../support/public";

const questions = [
  { key: "allergies", label: "Allergies?", type: "text", required: true },
  { key: "colour", label: "Colour", type: "choice", required: false, choices: ["Red", "Blue"] },
];

describe("happy", () => {
  it("201 with the booking as its manage link shows it; the hold's seat is the booking's", async () => {
    const f = await pageWithProviders(2, { questions });
    const [, second] = f.providerIds as [string, string];
    const start = at(3, "10:00");
    const hold = await heldOnPage(f.slug, f.serviceId, start, undefined, { providerId: second });
    const who = customer({
      customerPhone: "+49 30 1234567",
      notes: "Window seat",
      answers: { allergies: "None", colour: "Blue" },
    });
    const res = await publicBooking(f.slug, hold, who);
    expect(res.status).toBe(201);
    const view = await json(res);
    expect(view).toEqual(await json(await viaLink("GET", linkPath(view.manageUrl))));
    expect(view).toMatchObject({
      status: "CONFIRMED",
      startTime: new Date(start).toISOString(),
      service: { name: "Cut", durationMinutes: 30, timezone: "UTC" },
      providerNames: ["Stylist 1"],
      customerName: "Grace Hopper",
      customerEmail: who.customerEmail,
      customerPhone: "+49 30 1234567",
      notes: "Window seat",
    });
    const booking = await json(await api("GET", `/bookings/${view.id}`, { key: f.apiKey }));
    expect(booking).toMatchObject({
      providerId: second,
      answers: { allergies: "None", colour: "Blue" },
      status: "CONFIRMED",
    });
    expect(await json(await api("GET", `/holds/${hold.id}`, { key: f.apiKey }))).toMatchObject({
      status: "CONSUMED",
      bookingId: view.id,
    });
    // Two people: one of their sessions is the booking now, the other still free.
    expect(await slotAt(f.apiKey, f.serviceId, start)).toMatchObject({ booked: 1, held: 0, remaining: 1 });
  });

  it("a service that requires confirmation is booked PENDING", async () => {
    const f = await pageBusiness({ requiresConfirmation: true });
    const hold = await heldOnPage(f.slug, f.serviceId, at(3, "10:00"));
    expect((await json(await publicBooking(f.slug, hold))).status).toBe("PENDING");
  });
});

describe("error", () => {
  it("a token that is not the hold's is a 422 at holdToken and changes nothing", async () => {
    const f = await pageBusiness();
    const start = at(3, "10:00");
    const hold = await heldOnPage(f.slug, f.serviceId, start);
    const other = await heldOnPage(f.slug, f.serviceId, at(3, "11:00"));
    const flipped = `${hold.holdToken.slice(0, -2)}${hold.holdToken.endsWith("AA") ? "BA" : "AA"}`;
    for (const holdToken of [other.holdToken, flipped, "x", "A".repeat(43)]) {
      const body = await validationError(await publicBooking(f.slug, { id: hold.id, holdToken }), "holdToken");
      expect(body.message).toBe("Does not match holdId.");
    }
    expect(await d1Bookings(f.businessId)).toEqual([]);
    expect(await json(await api("GET", `/holds/${hold.id}`, { key: f.apiKey }))).toMatchObject({ status: "HELD" });
    expect((await publicBooking(f.slug, hold)).status).toBe(201);
  });

  it("a token books once: the second time, and after the hold ran out, it is a 409 hold_expired", async () => {
    const f = await pageBusiness();
    const hold = await heldOnPage(f.slug, f.serviceId, at(3, "10:00"));
    expect((await publicBooking(f.slug, hold)).status).toBe(201);
    await problem(await publicBooking(f.slug, hold), 409, "hold_expired");
    const later = await heldOnPage(f.slug, f.serviceId, at(3, "12:00"));
    await expireHold(f.businessId, f.serviceId, later.id);
    await problem(await publicBooking(f.slug, later), 409, "hold_expired");
    expect(await d1Bookings(f.businessId)).toHaveLength(1);
  });

  it("answers off the service's questions, or a bad e-mail, are a 422 at their field and book nothing", async () => {
    const f = await pageBusiness({ questions });
    const hold = await heldOnPage(f.slug, f.serviceId, at(3, "10:00"));
    await validationError(await publicBooking(f.slug, hold, { answers: {} }), "answers.allergies");
    await validationError(
      await publicBooking(f.slug, hold, { answers: { allergies: "No", colour: "Green" } }),
      "answers.colour",
    );
    await validationError(
      await publicBooking(f.slug, hold, { customerEmail: "not-an-address", answers: { allergies: "No" } }),
      "customerEmail",
    );
    await validationError(await viaPage(f.slug, "POST", "/bookings", { holdId: hold.id }), "holdToken");
    expect(await d1Bookings(f.businessId)).toEqual([]);
    expect((await publicBooking(f.slug, hold, { answers: { allergies: "No" } })).status).toBe(201);
  });
});

describe("security", () => {
  it("a hold the page did not place (an API key's), or another page's, cannot be booked with a page's token", async () => {
    const a = await pageBusiness();
    const b = await pageBusiness();
    const keyed = await apiHold(a.apiKey, a.serviceId, at(3, "10:00"));
    const mine = await heldOnPage(a.slug, a.serviceId, at(3, "11:00"));
    await validationError(await publicBooking(a.slug, { id: keyed.id, holdToken: mine.holdToken }), "holdToken");
    // The same hold and token through another business's page: that page's key signs other tokens.
    await validationError(await publicBooking(b.slug, mine), "holdToken");
    expect(await d1Bookings(a.businessId)).toEqual([]);
    expect(await d1Bookings(b.businessId)).toEqual([]);
  });

  it("the answer names no id of the business's but the booking's own", async () => {
    const f = await pageWithProviders(1);
    const hold = await heldOnPage(f.slug, f.serviceId, at(3, "10:00"));
    const text = await (await publicBooking(f.slug, hold)).text();
    expect(text).not.toMatch(/svc_|cus_|biz_|prv_|hld_/);
  });
});
