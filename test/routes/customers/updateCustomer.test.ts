/** PATCH /customers/{id}: edits, e-mail uniqueness, conditional writes, and bookings that follow the edit. */
import { describe, expect, it } from "vitest";
import { api, createAccount, createCustomer, createService, json, problem, validationError } from "../../support/api";
import { at, book, bookingBody } from "../../support/bookings";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

const patch = (key: string, id: string, body: unknown, headers?: Record<string, string>) =>
  api("PATCH", `/customers/${id}`, { key, body, headers });

describe("happy", () => {
  it("changes name, e-mail and phone; GET shows the change; null clears the phone", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey, { email: "ada@example.com", phone: "+44 20 7946 0000" });
    const res = await patch(apiKey, customer.id, { name: "Ada King", email: "Ada.King@Example.com", phone: null });
    expect(res.status).toBe(200);
    const updated = await json(res);
    expect(updated).toEqual({
      ...customer,
      name: "Ada King",
      email: "Ada.King@Example.com",
      phone: null,
      updatedAt: expect.any(String),
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(customer.updatedAt));
    const read = await api("GET", `/customers/${customer.id}`, { key: apiKey });
    expect(await json(read)).toEqual(updated);
    expect(read.headers.get("ETag")).toBe(res.headers.get("ETag"));
    const search = await json(await api("GET", "/customers?search=ada.king", { key: apiKey }));
    expect(search.data.map((c: { id: string }) => c.id)).toEqual([customer.id]);
  });

  it("a single field changes only that field", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey, { phone: "+1 555 0100" });
    const updated = await json(await patch(apiKey, customer.id, { phone: "+1 555 0199" }));
    expect(updated).toMatchObject({ name: customer.name, email: customer.email, phone: "+1 555 0199" });
  });

  it("the customer's bookings show the new details, and later changes to them still reach D1", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const first = await book(apiKey, bookingBody(service.id, at(2, "10:00"), { customerEmail: "old@example.com" }));
    const second = await book(apiKey, bookingBody(service.id, at(2, "11:00"), { customerEmail: "OLD@example.com" }));
    expect(second.customerId).toBe(first.customerId);

    const res = await patch(apiKey, first.customerId, {
      name: "Ada King",
      email: "new@example.com",
      phone: "+1 555 0100",
    });
    expect(res.status).toBe(200);
    for (const booking of [first, second]) {
      const read = await json(await api("GET", `/bookings/${booking.id}`, { key: apiKey }));
      expect(read).toMatchObject({
        customerId: first.customerId,
        customerName: "Ada King",
        customerEmail: "new@example.com",
        customerPhone: "+1 555 0100",
      });
    }
    // A status change goes through the calendar, which wrote the new details too: D1 takes it.
    const cancelled = await api("POST", `/bookings/${first.id}/cancel`, { key: apiKey, body: { reason: "moved" } });
    expect(await json(cancelled)).toMatchObject({ status: "CANCELLED", customerEmail: "new@example.com" });
    const read = await json(await api("GET", `/bookings/${first.id}`, { key: apiKey }));
    expect(read).toMatchObject({ status: "CANCELLED", customerName: "Ada King", customerEmail: "new@example.com" });

    // The new e-mail books as the same customer; the old one is free and makes a new customer.
    const third = await book(apiKey, bookingBody(service.id, at(2, "12:00"), { customerEmail: "NEW@example.com" }));
    expect(third.customerId).toBe(first.customerId);
    const fourth = await book(apiKey, bookingBody(service.id, at(2, "13:00"), { customerEmail: "old@example.com" }));
    expect(fourth.customerId).not.toBe(first.customerId);
    expect((await json(await api("GET", `/customers/${fourth.customerId}`, { key: apiKey }))).email).toBe(
      "old@example.com",
    );
  });

  it("If-Match with the current ETag applies; a stale one is 412 and changes nothing", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey);
    const etag = (await api("GET", `/customers/${customer.id}`, { key: apiKey })).headers.get("ETag") as string;
    const ok = await patch(apiKey, customer.id, { name: "First Edit" }, { "If-Match": etag });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("ETag")).not.toBe(etag);
    const stale = await patch(apiKey, customer.id, { name: "Second Edit" }, { "If-Match": etag });
    await problem(stale, 412, "precondition_failed");
    expect((await json(await api("GET", `/customers/${customer.id}`, { key: apiKey }))).name).toBe("First Edit");
  });

  it("a booking that changes the customer's name moves the ETag: an If-Match from before it is 412", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const customer = await createCustomer(apiKey, { email: "ada@example.com" });
    const etag = (await api("GET", `/customers/${customer.id}`, { key: apiKey })).headers.get("ETag") as string;
    await book(
      apiKey,
      bookingBody(service.id, at(2, "10:00"), { customerEmail: "ada@example.com", customerName: "Ada K" }),
    );
    const stale = await patch(apiKey, customer.id, { phone: "+1 555 0100" }, { "If-Match": etag });
    await problem(stale, 412, "precondition_failed");
    expect((await json(await api("GET", `/customers/${customer.id}`, { key: apiKey }))).name).toBe("Ada K");
  });

  it("concurrent edits with the same If-Match: exactly one wins, the rest are 412", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey);
    const etag = (await api("GET", `/customers/${customer.id}`, { key: apiKey })).headers.get("ETag") as string;
    const names = ["One", "Two", "Three", "Four", "Five", "Six"];
    const responses = await Promise.all(
      names.map((name) => patch(apiKey, customer.id, { name }, { "If-Match": etag })),
    );
    const winners = responses.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    for (const r of responses.filter((r) => r.status !== 200)) await problem(r, 412, "precondition_failed");
    const winner = await json(winners[0] as Response);
    expect(await json(await api("GET", `/customers/${customer.id}`, { key: apiKey }))).toEqual(winner);
  });

  it("two edits in a row always give two different ETags", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey);
    const tags = new Set<string | null>();
    for (const name of ["A", "B", "C"]) tags.add((await patch(apiKey, customer.id, { name })).headers.get("ETag"));
    expect(tags.size).toBe(3);
  });
});

describe("error", () => {
  it("an e-mail another customer has, in any case, is 409 customer_exists and changes nothing", async () => {
    const { apiKey } = await createAccount();
    await createCustomer(apiKey, { email: "grace@example.com" });
    const customer = await createCustomer(apiKey, { name: "Ada", email: "ada@example.com" });
    const res = await patch(apiKey, customer.id, { name: "Changed", email: "GRACE@Example.COM" });
    const body = await problem(res, 409, "customer_exists");
    expect(body.errors).toEqual([{ path: "email", message: expect.any(String) }]);
    expect(await json(await api("GET", `/customers/${customer.id}`, { key: apiKey }))).toEqual(customer);
  });

  it("its own e-mail in another case is fine", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey, { email: "ada@example.com" });
    const res = await patch(apiKey, customer.id, { email: "ADA@example.com" });
    expect((await json(res)).email).toBe("ADA@example.com");
  });

  it.each([
    ["an empty body", {}, "(root)"],
    ["an unknown field", { name: "Ada", vip: true }, "vip"],
    ["an invalid e-mail", { email: "not-an-email" }, "email"],
    ["an e-mail under .invalid", { email: "someone@example.invalid" }, "email"],
    ["a blank name", { name: "   " }, "name"],
    ["a null name", { name: null }, "name"],
    ["a null e-mail", { email: null }, "email"],
    ["a phone with letters", { phone: "call me" }, "phone"],
  ])("%s is 422 and changes nothing", async (_, body, path) => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey);
    await validationError(await patch(apiKey, customer.id, body), path);
    expect(await json(await api("GET", `/customers/${customer.id}`, { key: apiKey }))).toEqual(customer);
  });

  it("an unknown id is 404", async () => {
    const { apiKey } = await createAccount();
    await problem(await patch(apiKey, "cus_00000000000000000000000000", { name: "X" }), 404, "not_found");
  });

  it("a body that is not JSON is 400 / 415", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey);
    const malformed = await api("PATCH", `/customers/${customer.id}`, {
      key: apiKey,
      rawBody: '{"name":',
      headers: { "Content-Type": "application/json" },
    });
    await problem(malformed, 400, "malformed_json");
    const text = await api("PATCH", `/customers/${customer.id}`, {
      key: apiKey,
      rawBody: "name=x",
      headers: { "Content-Type": "text/plain" },
    });
    await problem(text, 415, "unsupported_media_type");
  });
});

describe("security", () => {
  it("needs an API key: 401 with the Bearer challenge, nothing changed", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey);
    await expectUnauthorized(await api("PATCH", `/customers/${customer.id}`, { body: { name: "Eve" } }), false);
    expect((await json(await api("GET", `/customers/${customer.id}`, { key: apiKey }))).name).toBe(customer.name);
  });

  it("a revoked key: 401, nothing changed", async () => {
    const { apiKey, businessId } = await createAccount();
    const customer = await createCustomer(apiKey);
    await expectUnauthorized(await patch(await revokedKey(businessId), customer.id, { name: "Eve" }), true);
    expect(await json(await api("GET", `/customers/${customer.id}`, { key: apiKey }))).toEqual(customer);
  });

  it("another business's customer is 404 and stays unchanged; its e-mail is free there", async () => {
    const owner = await createAccount("Owner");
    const other = await createAccount("Other");
    const customer = await createCustomer(owner.apiKey, { email: "ada@example.com" });
    await problem(await patch(other.apiKey, customer.id, { name: "Hijacked" }), 404, "not_found");
    expect(await json(await api("GET", `/customers/${customer.id}`, { key: owner.apiKey }))).toEqual(customer);
    const mine = await createCustomer(other.apiKey, { email: "grace@example.com" });
    expect((await json(await patch(other.apiKey, mine.id, { email: "ADA@example.com" }))).email).toBe(
      "ADA@example.com",
    );
  });

  it("the 404 for another business's customer is the one an unknown id gets, naming nothing of the owner", async () => {
    const owner = await createAccount("Owner Bakery");
    const other = await createAccount("Other");
    const customer = await createCustomer(owner.apiKey, { name: "Zelda Owner", email: "zelda@example.com" });
    const unknownId = unknownIdLike(customer.id);
    await expectNotFoundLikeUnknown(
      await patch(other.apiKey, customer.id, { email: "zelda@example.com" }),
      customer.id,
      await patch(other.apiKey, unknownId, { email: "zelda@example.com" }),
      unknownId,
      ["Owner Bakery", "Zelda Owner", owner.businessId],
    );
  });
});
