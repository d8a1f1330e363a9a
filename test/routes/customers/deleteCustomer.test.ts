/**
 * DELETE /customers/{id}: the right to erasure. After it, no response of the API (and no copy in
 * D1 or in the calendar) holds the person's name, e-mail, phone or booking notes.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ServiceCalendar } from "../../../src/calendar/service/object/service-calendar";
import { api, createAccount, createCustomer, createService, json, problem, validationError } from "../../support/api";
import { at, book, bookingBody, calendarStub, postBooking } from "../../support/bookings";
import { eventually } from "../../support/eventually";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

const secrets = {
  name: "Zelda Quixotewright",
  email: "zelda.quixote@example.com",
  phone: "+49 30 9876543",
  notes: "Allergic to latex; door code 4711",
  reason: "Zelda is in hospital",
  answer: "Penicillin rash in 1987",
};

/** Every secret (and the e-mail in any case) that occurs in `text`. */
function leaks(text: string): string[] {
  const lower = text.toLowerCase();
  return Object.values(secrets).filter((s) => lower.includes(s.toLowerCase()));
}

/** Answers webhook POSTs to hooks.example with 200 and keeps their bodies. */
function receiver() {
  const bodies: string[] = [];
  const original = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith("https://hooks.example/")) return original(input, init);
    bodies.push(await request.text());
    return new Response(null, { status: 200 });
  });
  return bodies;
}

afterEach(() => vi.restoreAllMocks());

const text = async (res: Response) => {
  expect(res.status, `${res.url} ${res.status}`).toBeLessThan(300);
  return res.text();
};

/** A business with a webhook, and a customer with two bookings (one cancelled with a reason), one made with a key. */
async function customerWithHistory() {
  const sent = receiver();
  const account = await createAccount();
  const key = account.apiKey;
  const service = await createService(key, {
    questions: [{ key: "allergies", label: "Any allergies?", type: "text", required: true }],
  });
  const hook = await json(
    await api("POST", "/webhooks", {
      key,
      body: { url: "https://hooks.example/in", events: ["booking.created", "booking.cancelled", "booking.updated"] },
    }),
  );
  const body = bookingBody(service.id, at(3, "10:00"), {
    customerName: secrets.name,
    customerEmail: secrets.email,
    customerPhone: secrets.phone,
    notes: secrets.notes,
    answers: { allergies: secrets.answer },
  });
  const first = await postBooking(key, body, "erase-me-1");
  expect(first.status).toBe(201);
  const kept = await json(first);
  const second = await book(key, { ...body, startTime: at(3, "11:00"), endTime: at(3, "11:30") });
  const cancel = await api("POST", `/bookings/${second.id}/cancel`, {
    key,
    body: { reason: secrets.reason },
    headers: { "Idempotency-Key": "erase-cancel-1" },
  });
  expect(cancel.status).toBe(200);
  await eventually(async () => (sent.length >= 3 ? true : undefined), "three deliveries");
  expect(leaks(sent.join("\n"))).toEqual(Object.values(secrets));
  return { ...account, key, service, hook, body, bookings: [kept, second], customerId: kept.customerId, sent };
}

describe("happy", () => {
  it("204; afterwards no endpoint returns the name, e-mail, phone, notes or reason; times, status and ids are kept", async () => {
    const s = await customerWithHistory();
    const res = await api("DELETE", `/customers/${s.customerId}`, { key: s.key });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");

    await problem(await api("GET", `/customers/${s.customerId}`, { key: s.key }), 404, "not_found");
    for (const term of [secrets.name, secrets.email, "zelda", "erased"]) {
      const found = await json(await api("GET", `/customers?search=${encodeURIComponent(term)}`, { key: s.key }));
      expect(found.data, term).toEqual([]);
    }
    const all = await json(await api("GET", "/customers?limit=100", { key: s.key }));
    expect(all.data.map((c: { id: string }) => c.id)).not.toContain(s.customerId);

    const responses = [
      await text(await api("GET", "/bookings?limit=100", { key: s.key })),
      await text(await api("GET", `/bookings?customerId=${s.customerId}`, { key: s.key })),
      await text(await api("GET", `/webhooks/${s.hook.id}/deliveries`, { key: s.key })),
    ];
    for (const booking of s.bookings) {
      const read = await api("GET", `/bookings/${booking.id}`, { key: s.key });
      const erased = await json(read.clone());
      responses.push(await text(read));
      expect(erased).toEqual({
        ...booking,
        customerName: "Erased customer",
        customerEmail: `erased-${s.customerId}@invalid`,
        customerPhone: null,
        notes: null,
        answers: {},
        cancellationReason: null,
        // An erased customer's links end.
        manageUrl: null,
        // Status, times, service and ids stay; the change is a change of the record.
        status: booking.id === s.bookings[1].id ? "CANCELLED" : "CONFIRMED",
        cancelledAt: booking.id === s.bookings[1].id ? expect.any(String) : null,
        updatedAt: expect.any(String),
      });
    }
    // The stored idempotent responses replay the erased booking, not the one first answered.
    const replay = await postBooking(s.key, s.body, "erase-me-1");
    expect(replay.status).toBe(201);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    const replayed = await json(replay.clone());
    expect(replayed.id).toBe(s.bookings[0].id);
    responses.push(await text(replay));
    const cancelReplay = await api("POST", `/bookings/${s.bookings[1].id}/cancel`, {
      key: s.key,
      body: { reason: secrets.reason },
      headers: { "Idempotency-Key": "erase-cancel-1" },
    });
    responses.push(await text(cancelReplay));
    for (const response of responses) expect(leaks(response), response).toEqual([]);

    // A webhook delivery sent again carries the erased payload.
    const [delivery] = (await json(await api("GET", `/webhooks/${s.hook.id}/deliveries`, { key: s.key }))).data;
    const before = s.sent.length;
    const retried = await api("POST", `/webhooks/${s.hook.id}/deliveries/${delivery.id}/retry`, { key: s.key });
    expect(retried.status).toBe(202);
    await eventually(async () => (s.sent.length > before ? true : undefined), "the re-sent delivery");
    expect(leaks(s.sent.slice(before).join("\n"))).toEqual([]);
    expect(JSON.parse(s.sent.at(-1) as string).data.customerName).toBe("Erased customer");

    // Nothing stored keeps them either: D1 and the calendar's own tables.
    const tables = ["customers", "bookings", "idempotency_keys", "webhook_events"];
    for (const table of tables) {
      const { results } = await env.DB_0.prepare(`SELECT * FROM ${table}`).all();
      expect(leaks(JSON.stringify(results)), table).toEqual([]);
    }
    const stored = await runInDurableObject(
      calendarStub(s.businessId, s.service.id),
      (_instance: ServiceCalendar, state) =>
        ["bookings", "events", "outbox"].map((table) => state.storage.sql.exec(`SELECT * FROM ${table}`).toArray()),
    );
    expect(leaks(JSON.stringify(stored))).toEqual([]);
  });

  it("a later booking with the same e-mail makes a new customer; the erased bookings stay with the erased one", async () => {
    const s = await customerWithHistory();
    expect((await api("DELETE", `/customers/${s.customerId}`, { key: s.key })).status).toBe(204);
    const again = await book(s.key, { ...s.body, startTime: at(4, "10:00"), endTime: at(4, "10:30") });
    expect(again.customerId).not.toBe(s.customerId);
    expect(again).toMatchObject({ customerName: secrets.name, customerEmail: secrets.email });
    const customer = await json(await api("GET", `/customers/${again.customerId}`, { key: s.key }));
    expect(customer).toMatchObject({ name: secrets.name, email: secrets.email, phone: secrets.phone });
    const found = await json(
      await api("GET", `/customers?search=${encodeURIComponent(secrets.email)}`, { key: s.key }),
    );
    expect(found.data.map((c: { id: string }) => c.id)).toEqual([again.customerId]);
    const old = await json(await api("GET", `/bookings?customerId=${s.customerId}`, { key: s.key }));
    expect(old.data.map((b: { id: string }) => b.id).sort()).toEqual(s.bookings.map((b) => b.id).sort());
    // Creating the customer by hand works too, and changing an erased booking leaves it erased.
    await problem(
      await api("POST", "/customers", { key: s.key, body: { name: "X", email: secrets.email } }),
      409,
      "customer_exists",
    );
    const confirmed = s.bookings[0];
    const patched = await api("PATCH", `/bookings/${confirmed.id}`, { key: s.key, body: { status: "CANCELLED" } });
    expect(await json(patched)).toMatchObject({ status: "CANCELLED", customerName: "Erased customer", notes: null });
  });

  it("a second DELETE repeats the erasure and answers 204 again; PATCH and GET of the erased customer are 404", async () => {
    const s = await customerWithHistory();
    expect((await api("DELETE", `/customers/${s.customerId}`, { key: s.key })).status).toBe(204);
    expect((await api("DELETE", `/customers/${s.customerId}`, { key: s.key })).status).toBe(204);
    await problem(
      await api("PATCH", `/customers/${s.customerId}`, { key: s.key, body: { name: secrets.name } }),
      404,
      "not_found",
    );
    const read = await json(await api("GET", `/bookings/${s.bookings[0].id}`, { key: s.key }));
    expect(leaks(JSON.stringify(read))).toEqual([]);
  });

  it("erases a customer who has no bookings", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey, { name: secrets.name, email: secrets.email });
    expect((await api("DELETE", `/customers/${customer.id}`, { key: apiKey })).status).toBe(204);
    await problem(await api("GET", `/customers/${customer.id}`, { key: apiKey }), 404, "not_found");
    expect((await json(await api("GET", "/customers", { key: apiKey }))).data).toEqual([]);
  });
});

describe("error", () => {
  it("an unknown id is 404", async () => {
    const { apiKey } = await createAccount();
    await problem(await api("DELETE", "/customers/cus_00000000000000000000000000", { key: apiKey }), 404, "not_found");
  });

  it("an id longer than 64 characters is 422", async () => {
    const { apiKey } = await createAccount();
    await validationError(await api("DELETE", `/customers/${"c".repeat(65)}`, { key: apiKey }), "id");
  });

  it("the placeholder e-mail cannot be used to book onto the erased customer", async () => {
    const s = await customerWithHistory();
    expect((await api("DELETE", `/customers/${s.customerId}`, { key: s.key })).status).toBe(204);
    const res = await postBooking(s.key, {
      ...s.body,
      customerEmail: `erased-${s.customerId}@invalid`,
      startTime: at(4, "12:00"),
      endTime: at(4, "12:30"),
    });
    await validationError(res, "customerEmail");
  });
});

describe("security", () => {
  it("needs an API key: 401 with the Bearer challenge, nothing erased", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey);
    await expectUnauthorized(await api("DELETE", `/customers/${customer.id}`), false);
    expect((await api("GET", `/customers/${customer.id}`, { key: apiKey })).status).toBe(200);
  });

  it("a revoked key: 401, nothing erased", async () => {
    const { apiKey, businessId } = await createAccount();
    const customer = await createCustomer(apiKey);
    await expectUnauthorized(
      await api("DELETE", `/customers/${customer.id}`, { key: await revokedKey(businessId) }),
      true,
    );
    expect(await json(await api("GET", `/customers/${customer.id}`, { key: apiKey }))).toEqual(customer);
  });

  it("the 404 for another business's customer is the one an unknown id gets, naming nothing of the owner", async () => {
    const owner = await createAccount("Owner Bakery");
    const other = await createAccount("Other");
    const customer = await createCustomer(owner.apiKey, { name: secrets.name, email: secrets.email });
    const unknownId = unknownIdLike(customer.id);
    await expectNotFoundLikeUnknown(
      await api("DELETE", `/customers/${customer.id}`, { key: other.apiKey }),
      customer.id,
      await api("DELETE", `/customers/${unknownId}`, { key: other.apiKey }),
      unknownId,
      ["Owner Bakery", secrets.name, secrets.email, owner.businessId],
    );
    expect((await json(await api("GET", `/customers/${customer.id}`, { key: owner.apiKey }))).name).toBe(secrets.name);
  });

  it("another business cannot erase the customer (404) and nothing of it changes", async () => {
    const s = await customerWithHistory();
    const other = await createAccount("Other");
    await problem(await api("DELETE", `/customers/${s.customerId}`, { key: other.apiKey }), 404, "not_found");
    const customer = await json(await api("GET", `/customers/${s.customerId}`, { key: s.key }));
    expect(customer).toMatchObject({ name: secrets.name, email: secrets.email });
    const booking = await json(await api("GET", `/bookings/${s.bookings[0].id}`, { key: s.key }));
    expect(booking).toEqual(s.bookings[0]);
  });
});
