/**
 * The document's `webhooks` section describes what receivers really get: each event type a
 * business can subscribe to is documented, and the bodies and headers of real deliveries (a
 * booking made, moved, edited, reminded of and cancelled; a person's own calendar that fails; an
 * e-mail to the booking's customer refused; an event put over a person's booking in their own
 * calendar, then deleted)
 * validate against the documented request.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { afterEach, describe, expect, it, vi } from "vitest";
import { webhookEventTypes } from "../../src/types/webhook";
import { api, createAccount, createService, json } from "../support/api";
import { at, bookingBody, calendarStub, plus } from "../support/bookings";
import {
  connect,
  deleteEvent,
  newCollection,
  providerStub,
  putEvent,
  syncNow,
  vcalendar,
  vevent,
} from "../support/connected-calendars";
import { eventually } from "../support/eventually";
import { createProvider, newProvider } from "../support/fixtures";
import { mailbox } from "../support/worker";

afterEach(() => vi.restoreAllMocks());

type Sent = { headers: Record<string, string>; body: string };

describe("the webhooks section", () => {
  it("documents every event type, and every delivery a booking's life sends validates against it", async () => {
    const doc = await json(await api("GET", "/openapi.json"));
    expect(Object.keys(doc.webhooks).sort()).toEqual([...webhookEventTypes].sort());

    const sent: Sent[] = [];
    const original = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      // The request itself (its body unread): a calendar server's REPORT carries one.
      if (!request.url.startsWith("https://hooks.example/")) return original(request);
      sent.push({ headers: Object.fromEntries(request.headers), body: await request.text() });
      return new Response(null, { status: 204 });
    });

    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey, { reminders: [{ offsetMinutes: 60 }] });
    const hook = { url: "https://hooks.example/all", events: [...webhookEventTypes] };
    expect((await api("POST", "/webhooks", { key: apiKey, body: hook })).status).toBe(201);
    // E-mails on, and the e-mail service refuses this customer's address: `email.failed` too.
    expect((await api("PATCH", "/business", { key: apiKey, body: { emails: { enabled: true } } })).status).toBe(200);
    const customerEmail = "refused@example.com";
    mailbox.faults.refuse = [customerEmail];
    const start = at(2, "10:00");
    const booking = await json(
      await api("POST", "/bookings", { key: apiKey, body: bookingBody(service.id, start, { customerEmail }) }),
    );
    const moved = { startTime: plus(start, 60), endTime: plus(start, 90) };
    expect((await api("POST", `/bookings/${booking.id}/reschedule`, { key: apiKey, body: moved })).status).toBe(200);
    expect((await api("PATCH", `/bookings/${booking.id}`, { key: apiKey, body: { notes: "Window" } })).status).toBe(
      200,
    );
    // An hour before the moved start, the calendar's alarm sends the reminder.
    vi.setSystemTime(Date.parse(moved.startTime) - 59 * 60_000);
    await runDurableObjectAlarm(calendarStub(businessId, service.id));
    vi.useRealTimers();
    // Someone waits for the moved booking's slot: its cancel offers them the seat.
    const waiting = { serviceId: service.id, ...moved, customerName: "Wait Ing", customerEmail: "wait@example.com" };
    expect((await api("POST", "/waitlist", { key: apiKey, body: waiting })).status).toBe(201);
    expect((await api("POST", `/bookings/${booking.id}/cancel`, { key: apiKey })).status).toBe(200);
    // A person's own calendar on a closed port: its first read fails, an outage begins.
    const person = await createProvider(apiKey);
    const calendar = await connect(apiKey, person.id, { url: "http://127.0.0.1:9/dav/calendar/" });
    expect(calendar.syncStatus).toBe("failing");
    await runDurableObjectAlarm(providerStub(businessId, person.id));
    // Another person's own calendar gains an event over their booking, then loses it: a conflict, resolved.
    const stylist = { id: await newProvider(apiKey, "Stylist") };
    const cut = await createService(apiKey, { name: "Cut", providerIds: [stylist.id] });
    const cutBooking = bookingBody(cut.id, at(3, "10:00"), { providerId: stylist.id });
    expect((await api("POST", "/bookings", { key: apiKey, body: cutBooking })).status).toBe(201);
    const collection = await newCollection();
    const own = await connect(apiKey, stylist.id, { url: collection });
    const member = await putEvent(collection, "dentist", vcalendar(vevent("dentist", at(3, "10:00"), at(3, "11:00"))));
    await syncNow(apiKey, stylist.id, own.id);
    await runDurableObjectAlarm(providerStub(businessId, stylist.id));
    await deleteEvent(member);
    await syncNow(apiKey, stylist.id, own.id);
    await runDurableObjectAlarm(providerStub(businessId, stylist.id));
    const delivered = (type: string) => sent.some((d) => d.body.includes(`"type":"${type}"`));
    // The refused e-mail's `email.failed` comes from the queue, in its own time: wait for every type.
    await eventually(
      async () => (webhookEventTypes.every(delivered) ? true : undefined),
      "a delivery of every event type",
    );
    mailbox.faults.refuse = undefined;

    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: "https://doc.invalid/openapi.json" });
    const types = new Set<string>();
    for (const delivery of sent) {
      const payload = JSON.parse(delivery.body) as { type: string };
      types.add(payload.type);
      const operation = doc.webhooks[payload.type].post;
      const pointer = `/webhooks/${payload.type}/post/requestBody/content/application~1json/schema`;
      const validate = ajv.compile({ $ref: `https://doc.invalid/openapi.json#${pointer}` });
      expect(validate(payload), `${payload.type}: ${JSON.stringify(validate.errors)}`).toBe(true);
      const headers = operation.parameters.filter((p: { in: string }) => p.in === "header");
      for (const header of headers) expect(delivery.headers[header.name], header.name).toBeTruthy();
    }
    expect([...types].sort()).toEqual([...webhookEventTypes].sort());
  });
});
