/**
 * Bounds and privacy of messages: a business sends at most EMAIL_HOURLY_LIMIT an hour (25 in the
 * tests, vitest.config.ts), checked and counted in one statement, so a concurrent burst never
 * passes it; past it a message fails with its reason and `email.failed` goes out once that hour.
 * An address the e-mail service refuses fails for good; a service that keeps failing is given up
 * by the dead-letter queue. An erased customer is sent nothing and their address leaves the log.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { api, json } from "../support/api";
import { at, bookingBody, calendarStub, plus } from "../support/bookings";
import { eventually } from "../support/eventually";
import { injectFaults } from "../support/faults";
import {
  deadLetter,
  delivered,
  eventOf,
  type Mailing,
  mailingBusiness,
  messagesOf,
  redeliver,
  sentTo,
  settledMessages,
  triesOf,
} from "../support/messages";
import { mailbox } from "../support/worker";

const LIMIT = 25;

afterEach(() => {
  mailbox.faults = {};
  vi.restoreAllMocks();
});

/** Webhook POSTs to hooks.example, as a receiver would get them (the Worker's fetch, intercepted in this isolate). */
function receiver() {
  const received: { type: string; data: Record<string, unknown> }[] = [];
  const original = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith("https://hooks.example/")) return original(input, init);
    received.push(await request.json());
    return new Response(null, { status: 204 });
  });
  return received;
}

/** A business with e-mails on and a webhook endpoint for `email.failed`. */
async function watchedBusiness(): Promise<Mailing> {
  const m = await mailingBusiness();
  const hook = { url: "https://hooks.example/failures", events: ["email.failed"] };
  expect((await api("POST", "/webhooks", { key: m.apiKey, body: hook })).status).toBe(201);
  return m;
}

/** The business's messages in D1, with the hour each was counted against. */
async function messagesInD1(businessId: string) {
  const { results } = await env.DB_0.prepare("SELECT id, status, reason, hour FROM messages WHERE business_id = ?")
    .bind(businessId)
    .all<{ id: string; status: string; reason: string | null; hour: string | null }>();
  return results;
}

/** The deliveries of the business's `email.failed` events, with their event's id. */
async function failureDeliveries(businessId: string) {
  const { results } = await env.DB_0.prepare(
    "SELECT event_id AS eventId, status, attempts FROM webhook_deliveries WHERE business_id = ? AND event_type = 'email.failed'",
  )
    .bind(businessId)
    .all<{ eventId: string; status: string; attempts: number }>();
  return results;
}

describe("the hourly limit", () => {
  it(`a burst of ${LIMIT + 5} messages tried at once: ${LIMIT} sent, 5 failed with the reason, one email.failed`, async () => {
    const received = receiver();
    const m = await watchedBusiness();
    // The calendar keeps its events from the queue, so every message waits, queued, for the burst.
    await injectFaults(calendarStub(m.businessId, m.service.id), {
      publish: async () => {
        throw new Error("injected: held back for the burst");
      },
    });
    for (let i = 0; i < LIMIT + 5; i++) {
      const start = plus(at(4 + Math.floor(i / 16), "09:00"), 30 * (i % 16));
      expect((await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, start) })).status).toBe(
        201,
      );
    }
    const queued = await eventually(async () => {
      const rows = await messagesInD1(m.businessId);
      return rows.length === LIMIT + 5 ? rows : undefined;
    }, "every message recorded");
    expect(queued.every((r) => r.status === "queued")).toBe(true);

    await Promise.all(queued.map((r) => redeliver(eventOf(r.id))));

    const settled = await messagesInD1(m.businessId);
    const sent = settled.filter((r) => r.status === "sent");
    const failed = settled.filter((r) => r.status === "failed");
    // Counted by clock hour: no hour holds more than the limit, whatever hour the burst fell in.
    const perHour = new Map<string, number>();
    for (const r of settled) if (r.hour) perHour.set(r.hour, (perHour.get(r.hour) ?? 0) + 1);
    for (const count of perHour.values()) expect(count).toBeLessThanOrEqual(LIMIT);
    expect(sent.length + failed.length).toBe(LIMIT + 5);
    if (perHour.size === 1) {
      expect(sent).toHaveLength(LIMIT);
      expect(failed.map((r) => r.reason)).toEqual(Array(5).fill("hourly_limit"));
    }
    expect(new Set(sent.flatMap((r) => delivered(triesOf(r.id)).map((t) => t.message.to))).size).toBe(sent.length);
    for (const r of failed) expect(triesOf(r.id)).toEqual([]);

    // The business hears once that hour, whatever number failed.
    // One email.failed for the hour, whatever number failed: one event, one delivery, sent once.
    const [alert] = await eventually(async () => {
      const rows = await failureDeliveries(m.businessId);
      return rows.length > 0 && rows.every((row) => row.status === "succeeded") ? rows : undefined;
    }, "the email.failed delivery");
    expect(alert).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(await failureDeliveries(m.businessId)).toHaveLength(1);
    // Each failure queued the event while its delivery was untried; a copy that arrives after the
    // send finds nothing left to deliver.
    await redeliver(alert?.eventId as string);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ type: "email.failed", data: { reason: "hourly_limit", kind: "confirmation" } });
    const failure = settled.find((r) => r.id === received[0]?.data.messageId);
    expect(failure).toMatchObject({ status: "failed", reason: "hourly_limit" });
  });
});

describe("refusals and retries", () => {
  it("an address the e-mail service refuses fails for good: no retry sends it", async () => {
    const received = receiver();
    const m = await watchedBusiness();
    mailbox.faults.refuse = ["nobody@refused.example"];
    const body = bookingBody(m.service.id, at(3, "10:00"), { customerEmail: "nobody@refused.example" });
    const booking = await json(await api("POST", "/bookings", { key: m.apiKey, body }));
    const [message] = await settledMessages(m.apiKey, booking.id, 1);
    expect(message).toMatchObject({
      status: "failed",
      reason: "refused",
      detail: "email to nobody@refused.example not allowed",
    });
    expect(await redeliver(eventOf(message?.id as string))).toBe(false);
    expect(triesOf(message?.id as string)).toHaveLength(1);
    await eventually(async () => (received.length === 1 ? true : undefined), "the email.failed webhook");
    expect(received[0]).toMatchObject({ type: "email.failed", data: { reason: "refused", bookingId: booking.id } });
  });

  it("a service that keeps failing: retried by the queue, then given up by the dead-letter queue", async () => {
    const m = await mailingBusiness();
    mailbox.faults.before = 1_000;
    const booking = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, at(3, "11:00")) }),
    );
    const first = await eventually(async () => {
      const [message] = await messagesOf(m.apiKey, booking.id);
      return message?.attempts === 1 && message.detail ? message : undefined;
    }, "the first try");
    for (let attempt = 2; attempt <= 4; attempt++) expect(await redeliver(eventOf(first.id), attempt)).toBe(true);
    await deadLetter(eventOf(first.id));
    const [given] = await messagesOf(m.apiKey, booking.id);
    expect(given).toMatchObject({ status: "failed", reason: "gave_up", attempts: 4 });
    expect(delivered(triesOf(first.id))).toEqual([]);
    mailbox.faults.before = undefined;
    expect(await redeliver(eventOf(first.id), 5)).toBe(false);
    expect(triesOf(first.id)).toHaveLength(4);
  });
});

describe("erasure", () => {
  it("nothing is sent to an erased customer, and the log keeps no address of theirs", async () => {
    const m = await mailingBusiness();
    const email = "forget.me@example.com";
    const sentBefore = await json(
      await api("POST", "/bookings", {
        key: m.apiKey,
        body: bookingBody(m.service.id, at(3, "12:00"), { customerEmail: email }),
      }),
    );
    await settledMessages(m.apiKey, sentBefore.id, 1);
    // The next one's send fails, so its message is still queued when the customer is erased.
    mailbox.faults.before = 1;
    const pending = await json(
      await api("POST", "/bookings", {
        key: m.apiKey,
        body: bookingBody(m.service.id, at(3, "13:00"), { customerEmail: email }),
      }),
    );
    const queued = await eventually(async () => {
      const [message] = await messagesOf(m.apiKey, pending.id);
      return message?.attempts === 1 && message.status === "queued" ? message : undefined;
    }, "the queued message");
    expect((await api("DELETE", `/customers/${pending.customerId}`, { key: m.apiKey })).status).toBe(204);

    expect(await redeliver(eventOf(queued.id))).toBe(false);
    expect(await messagesOf(m.apiKey, pending.id)).toMatchObject([{ status: "failed", reason: "erased", to: "" }]);
    expect(await messagesOf(m.apiKey, sentBefore.id)).toMatchObject([{ status: "sent", to: "" }]);
    expect(sentTo(email)).toHaveLength(1);
    expect(delivered(triesOf(queued.id))).toEqual([]);
    // A change of an erased customer's booking mails nobody either.
    expect((await api("POST", `/bookings/${pending.id}/cancel`, { key: m.apiKey, body: {} })).status).toBe(200);
    const [, cancelled] = await eventually(async () => {
      const list = await messagesOf(m.apiKey, pending.id);
      return list.length === 2 ? list : undefined;
    }, "the cancellation's message");
    expect(cancelled).toMatchObject({ kind: "cancelled", status: "failed", reason: "erased", to: "" });
    expect(sentTo(email)).toHaveLength(1);
  });
});
