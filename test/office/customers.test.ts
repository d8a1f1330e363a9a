/**
 * The office's customers: the search by name and e-mail, a customer's page and edit (seen by the
 * API), the erasure (owner only, after typing the e-mail), and who may see which customer.
 */
import { describe, expect, it } from "vitest";
import { api, createAccount, createCustomer, json } from "../support/api";
import { at, book, bookingBody } from "../support/bookings";
import { office } from "../support/members";
import { bookingOf, deskMember, deskSalon, page } from "../support/office";

/** The salon with the customer ids of its two bookings. */
async function salonWithCustomers() {
  const s = await deskSalon();
  const mine = await bookingOf(s.apiKey, s.mine.id);
  const theirs = await bookingOf(s.apiKey, s.theirs.id);
  return {
    ...s,
    mineCustomer: mine.customerId as string,
    mineEmail: mine.customerEmail as string,
    theirCustomer: theirs.customerId as string,
  };
}

describe("the customers' pages", () => {
  it("search finds a customer by name and by e-mail, each linking to their page", async () => {
    const s = await salonWithCustomers();
    const { cookie } = await deskMember(s, "frontdesk");
    const byName = await page("/office/customers?q=mine", cookie);
    expect(byName.status).toBe(200);
    expect(byName.html).toContain(`href="/office/customers/${s.mineCustomer}"`);
    expect(byName.html).not.toContain("Their Customer");
    const byEmail = await page(`/office/customers?q=${encodeURIComponent(s.mineEmail.slice(0, 12))}`, cookie);
    expect(byEmail.html).toContain("Mine Customer");
    expect(byEmail.html).not.toContain("Their Customer");
    expect((await page("/office/customers?q=nobody-like-this", cookie)).html).toContain("No customers found.");
    const long = await page(`/office/customers?q=${"a".repeat(201)}`, cookie);
    expect(long.status).toBe(400);
    expect(long.html).toContain("at most 200 characters");
  });

  it("a customer's page lists their bookings; the edit changes them as the API shows them", async () => {
    const s = await salonWithCustomers();
    const { cookie, id: memberId } = await deskMember(s, "frontdesk");
    const shown = await page(`/office/customers/${s.mineCustomer}`, cookie);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain(`href="/office/bookings/${s.mine.id}"`);
    expect(shown.html).not.toContain("Erase customer");
    const res = await office("POST", `/office/customers/${s.mineCustomer}`, {
      cookie,
      form: { name: "Mina Renamed", email: "mina@example.com", phone: "+49 30 555" },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`/office/customers/${s.mineCustomer}?done=saved`);
    const after = await json(await api("GET", `/customers/${s.mineCustomer}`, { key: s.apiKey }));
    expect(after).toMatchObject({ name: "Mina Renamed", email: "mina@example.com", phone: "+49 30 555" });
    expect((await bookingOf(s.apiKey, s.mine.id)).customerName).toBe("Mina Renamed");
    const audit = await json(await api("GET", `/audit-events?resourceId=${s.mineCustomer}`, { key: s.apiKey }));
    expect(audit.data[0]).toMatchObject({ action: "customer.updated", actor: { type: "member", id: memberId } });
    expect((await page(res.headers.get("Location") as string, cookie)).html).toContain("details were saved.");
  });

  it("a bad e-mail or another customer's e-mail is refused on the page, nothing changed", async () => {
    const s = await salonWithCustomers();
    const { cookie } = await deskMember(s, "owner");
    const bad = await office("POST", `/office/customers/${s.mineCustomer}`, {
      cookie,
      form: { name: "X", email: "not-an-address", phone: "" },
    });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("Enter an e-mail address.");
    const other = (await bookingOf(s.apiKey, s.theirs.id)).customerEmail as string;
    const taken = await office("POST", `/office/customers/${s.mineCustomer}`, {
      cookie,
      form: { name: "X", email: other, phone: "" },
    });
    expect(taken.status).toBe(409);
    const after = await json(await api("GET", `/customers/${s.mineCustomer}`, { key: s.apiKey }));
    expect(after.name).toBe("Mine Customer");
  });

  it("the owner erases after typing the e-mail; a wrong one erases nothing", async () => {
    const s = await salonWithCustomers();
    const { cookie } = await deskMember(s, "owner");
    const confirm = await page(`/office/customers/${s.mineCustomer}`, cookie);
    expect(confirm.html).toContain(`href="/office/customers/${s.mineCustomer}/erase"`);
    expect((await page(`/office/customers/${s.mineCustomer}/erase`, cookie)).html).toContain("e-mail to confirm");
    const wrong = await office("POST", `/office/customers/${s.mineCustomer}/erase`, {
      cookie,
      form: { confirm: "x@y.z" },
    });
    expect(wrong.status).toBe(422);
    expect((await api("GET", `/customers/${s.mineCustomer}`, { key: s.apiKey })).status).toBe(200);
    const res = await office("POST", `/office/customers/${s.mineCustomer}/erase`, {
      cookie,
      form: { confirm: s.mineEmail.toUpperCase() },
    });
    expect(res.status).toBe(303);
    expect((await api("GET", `/customers/${s.mineCustomer}`, { key: s.apiKey })).status).toBe(404);
    expect((await bookingOf(s.apiKey, s.mine.id)).customerName).not.toBe("Mine Customer");
    expect((await page("/office/customers?done=erased", cookie)).html).toContain("The customer was erased.");
  });

  it("the front desk is refused the erasure: a 403 page, the customer kept", async () => {
    const s = await salonWithCustomers();
    const { cookie } = await deskMember(s, "frontdesk");
    expect((await page(`/office/customers/${s.mineCustomer}/erase`, cookie)).status).toBe(403);
    const res = await office("POST", `/office/customers/${s.mineCustomer}/erase`, {
      cookie,
      form: { confirm: s.mineEmail },
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("<h1>");
    expect((await json(await api("GET", `/customers/${s.mineCustomer}`, { key: s.apiKey }))).name).toBe(
      "Mine Customer",
    );
  });

  it("staff see their own bookings' customers read only; another customer is a 404, the search a 403", async () => {
    const s = await salonWithCustomers();
    const { cookie } = await deskMember(s, "staff");
    // The same customer also booked with the other person: staff see only their own booking of them.
    const elsewhere = await book(
      s.apiKey,
      bookingBody(s.colour, at(3, "12:00"), {
        providerId: s.providerIds[1],
        customerName: "Mine Customer",
        customerEmail: s.mineEmail,
      }),
    );
    expect((await page(`/office/bookings/${s.mine.id}`, cookie)).html).toContain(
      `href="/office/customers/${s.mineCustomer}"`,
    );
    const own = await page(`/office/customers/${s.mineCustomer}`, cookie);
    expect(own.status).toBe(200);
    expect(own.html).toContain("Mine Customer");
    expect(own.html).toContain(`href="/office/bookings/${s.mine.id}"`);
    expect(own.html).not.toContain(elsewhere.id);
    const desk = await deskMember(s, "frontdesk");
    expect((await page(`/office/customers/${s.mineCustomer}`, desk.cookie)).html).toContain(elsewhere.id);
    expect(own.html).not.toContain('action="/office/customers/');
    expect((await page(`/office/customers/${s.theirCustomer}`, cookie)).status).toBe(404);
    expect((await page("/office/customers?q=mine", cookie)).status).toBe(403);
    const edit = await office("POST", `/office/customers/${s.mineCustomer}`, {
      cookie,
      form: { name: "Staff Was Here", email: s.mineEmail, phone: "" },
    });
    expect(edit.status).toBe(403);
    expect((await json(await api("GET", `/customers/${s.mineCustomer}`, { key: s.apiKey }))).name).toBe(
      "Mine Customer",
    );
  });

  it("another business's customer is a 404 page; a cross-site post is refused", async () => {
    const s = await salonWithCustomers();
    const { cookie } = await deskMember(s, "owner");
    const other = await createAccount("Elsewhere");
    const stranger = await createCustomer(other.apiKey, { name: "Stranger" });
    expect((await page(`/office/customers/${stranger.id}`, cookie)).status).toBe(404);
    const erase = await office("POST", `/office/customers/${stranger.id}/erase`, {
      cookie,
      form: { confirm: stranger.email },
    });
    expect(erase.status).toBe(404);
    expect((await api("GET", `/customers/${stranger.id}`, { key: other.apiKey })).status).toBe(200);
    const cross = await office("POST", `/office/customers/${s.mineCustomer}`, {
      cookie,
      form: { name: "Cross Site", email: s.mineEmail, phone: "" },
      headers: { Origin: "https://evil.example" },
    });
    expect(cross.status).toBe(403);
    expect((await json(await api("GET", `/customers/${s.mineCustomer}`, { key: s.apiKey }))).name).toBe(
      "Mine Customer",
    );
  });

  it("speaks German", async () => {
    const s = await salonWithCustomers();
    const { cookie } = await deskMember(s, "owner");
    const { html } = await page(`/office/customers/${s.mineCustomer}`, cookie, { "Accept-Language": "de" });
    expect(html).toContain('lang="de"');
    expect(html).toContain("Angaben ändern");
    expect(html).toContain("Kund:in löschen");
    expect(html).toContain("Neue Buchung");
  });
});
