/** Each tool against the real Worker: what it does is checked through the REST API. */
import { describe, expect, it } from "vitest";
import { api, createAccount, createCustomer, createService, json } from "../support/api";
import { allDay, at, availability, book, bookingBody, plus } from "../support/bookings";
import { callTool, refusalOf, toolOk, toolRefused } from "../support/mcp";

const customer = () => ({ customerName: "Grace Hopper", customerEmail: `${crypto.randomUUID()}@example.com` });

async function restGet(key: string, path: string) {
  const res = await api("GET", path, { key });
  expect(res.status, path).toBe(200);
  return json(res);
}

describe("list_services", () => {
  it("lists the services GET /services lists, with a line per service", async () => {
    const { apiKey } = await createAccount();
    await createService(apiKey, { name: "Cut" });
    await createService(apiKey, { name: "Colour" });
    const result = await callTool(apiKey, "list_services", {});
    expect(result.structuredContent).toEqual(await restGet(apiKey, "/services"));
    expect(result.content[0].text).toMatch(/^2 services/);
    expect(result.content[0].text).toContain('"Colour"');
  });
});

describe("find_availability", () => {
  it("lists the first 20 bookable slots of the range, skipping a taken one, and where to go on", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { weeklySchedule: allDay });
    const from = at(2, "00:00");
    const to = at(3, "00:00");
    await book(apiKey, bookingBody(service.id, at(2, "01:00")));

    const summary = await toolOk(apiKey, "find_availability", { serviceId: service.id, from, to });
    const rest = await availability(apiKey, service.id, from, to);
    const bookable = rest.slots.filter((s: { bookable: boolean }) => s.bookable);
    expect(bookable).toHaveLength(47);
    expect(summary.bookableCount).toBe(47);
    expect(summary.slots).toHaveLength(20);
    expect(summary.slots.map((s: { startTime: string }) => s.startTime)).toEqual(
      bookable.slice(0, 20).map((s: { startTime: string }) => s.startTime),
    );
    expect(summary.slots.map((s: { startTime: string }) => s.startTime)).not.toContain(
      new Date(at(2, "01:00")).toISOString(),
    );
    expect(summary.slots[0]).toEqual({ startTime: bookable[0].startTime, endTime: bookable[0].endTime, remaining: 1 });
    expect(summary.nextFrom).toBe(bookable[20].startTime);
    expect(summary).toMatchObject({ serviceId: service.id, timezone: "UTC" });
  });

  it("is bounded like REST: a range over 31 days is refused as validation_failed on to", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const { problem } = await toolRefused(
      apiKey,
      "find_availability",
      { serviceId: service.id, from: at(1, "00:00"), to: at(40, "00:00") },
      "validation_failed",
    );
    expect(problem.errors).toEqual([expect.objectContaining({ path: "to" })]);
  });

  it("refuses arguments of the wrong type with validation_failed naming them, before any REST call", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const { problem } = await toolRefused(
      apiKey,
      "find_availability",
      { serviceId: service.id, from: 1_700_000_000, colour: "red" },
      "validation_failed",
    );
    expect(problem.errors.map((e: { path: string }) => e.path).sort()).toEqual(["colour", "from"]);
    const missing = await toolRefused(apiKey, "find_availability", {}, "validation_failed");
    expect(missing.problem.errors).toEqual([expect.objectContaining({ path: "serviceId" })]);
  });

  it("answers not_found for a service of another business", async () => {
    const owner = await createAccount();
    const other = await createAccount();
    const service = await createService(owner.apiKey);
    await toolRefused(other.apiKey, "find_availability", { serviceId: service.id }, "not_found");
  });
});

describe("hold, book, reschedule and cancel", () => {
  it("hold_slot keeps a seat that book_appointment then books, once per idempotencyKey", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const startTime = at(3, "10:00");
    const hold = await toolOk(apiKey, "hold_slot", { serviceId: service.id, startTime, endTime: plus(startTime, 30) });
    expect(await restGet(apiKey, `/holds/${hold.id}`)).toMatchObject({ id: hold.id, status: "HELD" });

    const args = { holdId: hold.id, idempotencyKey: crypto.randomUUID(), ...customer() };
    const booking = await toolOk(apiKey, "book_appointment", args);
    expect(await restGet(apiKey, `/bookings/${booking.id}`)).toEqual(booking);
    expect(booking).toMatchObject({ serviceId: service.id, status: "CONFIRMED", customerName: "Grace Hopper" });
    expect(new Date(booking.startTime).toISOString()).toBe(new Date(startTime).toISOString());
    expect(await restGet(apiKey, `/holds/${hold.id}`)).toMatchObject({ status: "CONSUMED", bookingId: booking.id });

    // The same call again (a retry after a lost answer) replays the booking instead of booking twice.
    const retry = await callTool(apiKey, "book_appointment", args);
    expect(retry.structuredContent).toEqual(booking);
    expect(retry.content[0].text).toContain("replayed");
    expect((await restGet(apiKey, `/bookings?serviceId=${service.id}`)).pagination.total).toBe(1);
  });

  it("book_appointment without a hold books the given slot", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const startTime = at(3, "11:00");
    const booking = await toolOk(apiKey, "book_appointment", {
      serviceId: service.id,
      startTime,
      endTime: plus(startTime, 30),
      notes: "Window seat.",
      ...customer(),
    });
    expect(await restGet(apiKey, `/bookings/${booking.id}`)).toMatchObject({ id: booking.id, notes: "Window seat." });
  });

  it("reschedule_booking moves the booking and frees the old time; cancel_booking cancels it with its reason", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const first = at(4, "09:00");
    const booked = await book(apiKey, bookingBody(service.id, first));

    const later = at(4, "14:00");
    const moved = await toolOk(apiKey, "reschedule_booking", {
      bookingId: booked.id,
      startTime: later,
      endTime: plus(later, 30),
      idempotencyKey: crypto.randomUUID(),
    });
    expect(moved.id).toBe(booked.id);
    const stored = await restGet(apiKey, `/bookings/${booked.id}`);
    expect(stored).toEqual(moved);
    expect(Date.parse(stored.startTime)).toBe(Date.parse(later));
    const old = await availability(apiKey, service.id, first, plus(first, 1));
    expect(old.slots[0]).toMatchObject({ bookable: true, booked: 0 });

    const cancelled = await toolOk(apiKey, "cancel_booking", {
      bookingId: booked.id,
      reason: "Customer is travelling.",
      idempotencyKey: crypto.randomUUID(),
    });
    expect(await restGet(apiKey, `/bookings/${booked.id}`)).toMatchObject({
      status: "CANCELLED",
      cancellationReason: "Customer is travelling.",
    });
    expect(cancelled.status).toBe("CANCELLED");
    // Cancelling again is a refusal the model can read, not an error of the protocol.
    await toolRefused(apiKey, "cancel_booking", { bookingId: booked.id }, "invalid_transition");
  });

  it("a taken slot is refused as slot_unavailable, naming the next free slots", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const startTime = at(5, "10:00");
    await book(apiKey, bookingBody(service.id, startTime));

    const result = await callTool(apiKey, "book_appointment", {
      serviceId: service.id,
      startTime,
      endTime: plus(startTime, 30),
      ...customer(),
    });
    const { problem, text } = refusalOf(result, "slot_unavailable");
    expect(problem).toMatchObject({ status: 409, reason: "fully_booked" });
    expect(text).toContain("That slot was just taken; next free:");
    // The first suggestion is the slot right after the taken one, and it is really free.
    const next = new Date(plus(startTime, 30)).toISOString();
    expect(text).toContain(`${next}–${new Date(plus(startTime, 60)).toISOString()}`);
    const { nextFree } = JSON.parse(result.content[1].text);
    expect(nextFree).toHaveLength(5);
    expect(nextFree[0]).toEqual({
      startTime: next,
      endTime: new Date(plus(startTime, 60)).toISOString(),
      remaining: 1,
    });
    expect((await availability(apiKey, service.id, next, plus(next, 1))).slots[0].bookable).toBe(true);

    const held = await toolRefused(
      apiKey,
      "hold_slot",
      { serviceId: service.id, startTime, endTime: plus(startTime, 30) },
      "slot_unavailable",
    );
    expect(held.text).toContain(next);
  });

  it("a reschedule onto a taken slot leaves the booking as it was and suggests free slots", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const mine = await book(apiKey, bookingBody(service.id, at(6, "09:00")));
    const taken = at(6, "12:00");
    await book(apiKey, bookingBody(service.id, taken));
    const { text } = await toolRefused(
      apiKey,
      "reschedule_booking",
      { bookingId: mine.id, startTime: taken, endTime: plus(taken, 30) },
      "slot_unavailable",
    );
    expect(text).toContain(new Date(plus(taken, 30)).toISOString());
    expect(await restGet(apiKey, `/bookings/${mine.id}`)).toEqual(mine);
  });

  it("another business's booking is not found, and stays as it was", async () => {
    const owner = await createAccount();
    const other = await createAccount();
    const service = await createService(owner.apiKey);
    const booking = await book(owner.apiKey, bookingBody(service.id, at(7, "10:00")));
    await toolRefused(other.apiKey, "cancel_booking", { bookingId: booking.id }, "not_found");
    const later = at(7, "15:00");
    await toolRefused(
      other.apiKey,
      "reschedule_booking",
      { bookingId: booking.id, startTime: later, endTime: plus(later, 30) },
      "not_found",
    );
    expect(await restGet(owner.apiKey, `/bookings/${booking.id}`)).toEqual(booking);
  });

  it("passes REST's field rules through: an unknown field or a bad e-mail is validation_failed on that field", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const startTime = at(3, "12:00");
    const result = await callTool(apiKey, "book_appointment", {
      serviceId: service.id,
      startTime,
      endTime: plus(startTime, 30),
      customerName: "Grace Hopper",
      customerEmail: "not-an-address",
      colour: "red",
    });
    const { problem } = refusalOf(result, "validation_failed");
    expect(problem.errors.map((e: { path: string }) => e.path).sort()).toEqual(["colour", "customerEmail"]);
    const nonAscii = await toolRefused(
      apiKey,
      "cancel_booking",
      { bookingId: "bkg_x", idempotencyKey: "ключ" },
      "validation_failed",
    );
    expect(nonAscii.problem.errors).toEqual([expect.objectContaining({ path: "idempotencyKey" })]);
  });
});

describe("list_bookings and find_customers", () => {
  it("list_bookings answers what GET /bookings answers for the same filters", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const a = await book(apiKey, bookingBody(service.id, at(8, "09:00")));
    await book(apiKey, bookingBody(service.id, at(8, "10:00")));
    await book(apiKey, bookingBody(service.id, at(9, "10:00")));
    const args = { serviceId: service.id, from: at(8, "00:00"), to: at(9, "00:00"), limit: 5 };
    const page = await toolOk(apiKey, "list_bookings", args);
    const rest = await restGet(apiKey, `/bookings?serviceId=${service.id}&from=${args.from}&to=${args.to}&limit=5`);
    expect(page).toEqual(rest);
    expect(page.pagination.total).toBe(2);
    expect(page.data.map((b: { id: string }) => b.id)).toContain(a.id);
    await toolRefused(apiKey, "list_bookings", { status: "LOST" }, "validation_failed");
  });

  it("find_customers searches like GET /customers?search=", async () => {
    const { apiKey } = await createAccount();
    await createCustomer(apiKey, { name: "Ada Lovelace" });
    await createCustomer(apiKey, { name: "Alan Turing" });
    const result = await callTool(apiKey, "find_customers", { search: "lovelace" });
    expect(result.structuredContent).toEqual(await restGet(apiKey, "/customers?search=lovelace"));
    expect(result.structuredContent.data).toHaveLength(1);
    expect(result.content[0].text).toContain("Ada Lovelace");
  });
});
