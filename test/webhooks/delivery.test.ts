/**
 * Webhooks end to end in the Workers runtime: real D1, calendar Durable Object and queue; only the
 * receiver's network is stood in for, by intercepting the Worker's outbound fetch in this isolate.
 */
import {
  createExecutionContext,
  createMessageBatch,
  getQueueResult,
  runDurableObjectAlarm,
  runInDurableObject,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DeliveryMessage } from "../../src/audit/events";
import type { ServiceCalendar } from "../../src/calendar/service/object/service-calendar";
import { payloadWithLink } from "../../src/manage-links/present";
import {
  deadLetterWebhooks,
  deliverWebhooks,
  disableAfterDeadDeliveries,
  retryDelaysSeconds,
} from "../../src/webhooks/deliver";
import { api, createAccount, createService, json, problem } from "../support/api";
import { at, bookingBody, calendarStub } from "../support/bookings";
import { eventually } from "../support/eventually";
import { injectFaults } from "../support/faults";
import { recordingMailer } from "../support/worker";

type Received = { url: string; headers: Record<string, string>; body: string };

/** Answers outbound webhook POSTs with `status` and records them; other fetches pass through. */
function receiver(status: (n: number) => number) {
  const received: Received[] = [];
  const original = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith("https://hooks.example/")) return original(input, init);
    received.push({ url: request.url, headers: Object.fromEntries(request.headers), body: await request.text() });
    return new Response(null, { status: status(received.length) });
  });
  return received;
}

afterEach(() => vi.restoreAllMocks());

async function setup(
  events = ["booking.created", "booking.cancelled", "booking.updated"],
  url = "https://hooks.example/ok",
) {
  const account = await createAccount();
  const service = await createService(account.apiKey);
  const res = await api("POST", "/webhooks", { key: account.apiKey, body: { url, events } });
  expect(res.status).toBe(201);
  const webhook = await json(res);
  return { ...account, service, webhook };
}

const deliveries = async (key: string, webhookId: string) =>
  (await json(await api("GET", `/webhooks/${webhookId}/deliveries`, { key }))).data;

describe("happy", () => {
  it("a booking creates exactly one signed booking.created delivery that verifies per Standard Webhooks", async () => {
    const received = receiver(() => 204);
    const s = await setup();
    expect(s.webhook.secret).toMatch(/^whsec_/);
    const booking = await json(
      await api("POST", "/bookings", { key: s.apiKey, body: bookingBody(s.service.id, at(2, "10:00")) }),
    );

    const [delivery] = await eventually(async () => {
      const list = await deliveries(s.apiKey, s.webhook.id);
      return list[0]?.status === "succeeded" ? list : undefined;
    }, "the delivery to succeed");
    expect(received).toHaveLength(1);
    const sent = received[0] as Received;
    const payload = new Webhook(s.webhook.secret).verify(sent.body, sent.headers) as {
      type: string;
      data: { id: string; manageUrl: string };
    };
    expect(payload.type).toBe("booking.created");
    expect(payload.data.id).toBe(booking.id);
    // The customer's manage link rides along, the same as the API's answer, signed with the rest.
    expect(payload.data.manageUrl).toBe(booking.manageUrl);
    expect(booking.manageUrl).toMatch(/^http:\/\/api\.test\/api\/v1\/manage\//);
    expect(sent.headers["webhook-id"]).toBe(delivery.eventId);
    expect(delivery).toMatchObject({
      eventType: "booking.created",
      status: "succeeded",
      attempts: [{ attempt: 1, statusCode: 204 }],
    });
    // A tampered body does not verify.
    expect(() =>
      new Webhook(s.webhook.secret).verify(sent.body.replace("CONFIRMED", "CANCELLED"), sent.headers),
    ).toThrow();
  });

  it("cancelling raises booking.cancelled; endpoints get only the events they subscribed to", async () => {
    const received = receiver(() => 200);
    const s = await setup(["booking.cancelled"]);
    const booking = await json(
      await api("POST", "/bookings", { key: s.apiKey, body: bookingBody(s.service.id, at(2, "11:00")) }),
    );
    await api("POST", `/bookings/${booking.id}/cancel`, { key: s.apiKey, body: { reason: "ill" } });
    const list = await eventually(async () => {
      const l = await deliveries(s.apiKey, s.webhook.id);
      return l.length === 1 && l[0].status === "succeeded" ? l : undefined;
    }, "one cancelled delivery");
    expect(list[0].eventType).toBe("booking.cancelled");
    expect(received.map((r) => JSON.parse(r.body).type)).toEqual(["booking.cancelled"]);
  });

  it("a crash after the booking commits but before the queue has the event still delivers it", async () => {
    const received = receiver(() => 200);
    const s = await setup();
    const stub = calendarStub(s.businessId, s.service.id);
    // The queue is unreachable right after the commit (the process "dies" before enqueueing).
    await injectFaults(stub, {
      publish: async () => {
        throw new Error("injected crash before enqueue");
      },
    });
    const res = await api("POST", "/bookings", { key: s.apiKey, body: bookingBody(s.service.id, at(2, "12:00")) });
    expect(res.status).toBe(201);
    // The publish was tried and failed: the event waits in the calendar, so the queue never had it.
    const waiting = await eventually(async () => {
      const rows = await runInDurableObject(stub, (_instance: ServiceCalendar, state) =>
        state.storage.sql
          .exec<{ stage: string; attempts: number; last_error: string }>(
            "SELECT stage, attempts, last_error FROM events",
          )
          .toArray(),
      );
      return rows.some((row) => row.attempts > 0) ? rows : undefined;
    }, "the failed publish");
    expect(waiting).toEqual([
      { stage: "queue", attempts: 1, last_error: expect.stringContaining("injected crash before enqueue") },
    ]);
    expect(received).toHaveLength(0);
    // The event waits in the calendar; once the queue is back, the alarm publishes it.
    await injectFaults(stub, { publish: undefined });
    await runInDurableObject(stub, (_instance: ServiceCalendar, state) => {
      state.storage.sql.exec("UPDATE events SET next_attempt_ms = 0");
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await eventually(async () => (received.length === 1 ? true : undefined), "the delayed delivery");
    expect(JSON.parse((received[0] as Received).body).type).toBe("booking.created");
  });
});

describe("retries and dead letters", () => {
  it("a failing receiver is retried with backoff, then dead-lettered; the deliveries list shows every attempt", async () => {
    const received = receiver(() => 503);
    const s = await setup(["booking.created"]);
    await api("POST", "/bookings", { key: s.apiKey, body: bookingBody(s.service.id, at(2, "13:00")) });
    const [first] = await eventually(async () => {
      const l = await deliveries(s.apiKey, s.webhook.id);
      return l[0]?.status === "failed" ? l : undefined;
    }, "the first failed attempt");

    // Drive the consumer as the queue would on each retry, then the dead-letter consumer.
    for (let attempt = 2; attempt <= 4; attempt++) {
      const batch = createMessageBatch<DeliveryMessage>("booking-webhooks", [
        { id: `m${attempt}`, timestamp: new Date(), attempts: attempt, body: { eventId: first.eventId } },
      ]);
      const retry = vi.spyOn(batch.messages[0] as Message<DeliveryMessage>, "retry");
      await deliverWebhooks(batch, env, payloadWithLink, recordingMailer(env));
      const result = await getQueueResult(batch, createExecutionContext());
      expect(result.retryMessages.map((m) => m.msgId)).toEqual([`m${attempt}`]);
      expect(retry).toHaveBeenCalledWith({ delaySeconds: retryDelaysSeconds[attempt - 1] });
    }
    const dead = createMessageBatch<DeliveryMessage>("booking-webhooks-dlq", [
      { id: "dlq1", timestamp: new Date(), attempts: 1, body: { eventId: first.eventId } },
    ]);
    await deadLetterWebhooks(dead, env);

    const [delivery] = await deliveries(s.apiKey, s.webhook.id);
    expect(delivery.status).toBe("dead");
    expect(delivery.attempts.map((a: { attempt: number; statusCode: number }) => [a.attempt, a.statusCode])).toEqual([
      [1, 503],
      [2, 503],
      [3, 503],
      [4, 503],
    ]);
    expect(received.length).toBe(4);
    const endpoint = await json(await api("GET", `/webhooks/${s.webhook.id}`, { key: s.apiKey }));
    expect(endpoint).toMatchObject({ status: "active", consecutiveFailures: 1 });
  });

  it(`an endpoint is disabled only after ${disableAfterDeadDeliveries} dead deliveries in a row, with the reason shown`, async () => {
    receiver(() => 500);
    const s = await setup(["booking.created"]);
    for (let i = 0; i < disableAfterDeadDeliveries; i++) {
      await api("POST", "/bookings", { key: s.apiKey, body: bookingBody(s.service.id, at(3, `${10 + i}:00`)) });
    }
    const list = await eventually(async () => {
      const l = await deliveries(s.apiKey, s.webhook.id);
      return l.length === disableAfterDeadDeliveries && l.every((d: { status: string }) => d.status === "failed")
        ? l
        : undefined;
    }, "every delivery to fail once");
    for (const [i, d] of list.entries()) {
      const endpoint = await json(await api("GET", `/webhooks/${s.webhook.id}`, { key: s.apiKey }));
      expect(endpoint.status).toBe("active");
      await deadLetterWebhooks(
        createMessageBatch<DeliveryMessage>("booking-webhooks-dlq", [
          { id: `d${i}`, timestamp: new Date(), attempts: 1, body: { eventId: d.eventId } },
        ]),
        env,
      );
    }
    const endpoint = await json(await api("GET", `/webhooks/${s.webhook.id}`, { key: s.apiKey }));
    expect(endpoint.status).toBe("disabled");
    expect(endpoint.disabledReason).toMatch(/failed every retry/);
    const res = await api("POST", `/webhooks/${s.webhook.id}/deliveries/${list[0].id}/retry`, { key: s.apiKey });
    await problem(res, 409, "invalid_transition");
  });

  it("a delivery can be re-sent by hand", async () => {
    let fail = true;
    const received = receiver(() => (fail ? 500 : 200));
    const s = await setup(["booking.created"]);
    await api("POST", "/bookings", { key: s.apiKey, body: bookingBody(s.service.id, at(2, "14:00")) });
    const [failed] = await eventually(async () => {
      const l = await deliveries(s.apiKey, s.webhook.id);
      return l[0]?.status === "failed" ? l : undefined;
    }, "a failed delivery");
    fail = false;
    const res = await api("POST", `/webhooks/${s.webhook.id}/deliveries/${failed.id}/retry`, { key: s.apiKey });
    expect(res.status).toBe(202);
    await eventually(async () => {
      const l = await deliveries(s.apiKey, s.webhook.id);
      return l[0]?.status === "succeeded" ? l : undefined;
    }, "the re-sent delivery to succeed");
    expect(received.length).toBeGreaterThanOrEqual(2);
  });
});

describe("errors and security", () => {
  it("rejects plain-http, host-less and unknown-event registrations, storing nothing", async () => {
    const { apiKey } = await createAccount();
    for (const body of [
      { url: "http://hooks.example/x", events: ["booking.created"] },
      { url: "https://", events: ["booking.created"] },
      { url: "https://hooks.example/x", events: ["booking.exploded"] },
      { url: "https://hooks.example/x", events: [] },
      { url: "https://hooks.example/x", events: ["booking.created", "booking.created"] },
      { url: "https://hooks.example/x", events: ["booking.created"], secret: "mine" },
    ]) {
      await problem(await api("POST", "/webhooks", { key: apiKey, body }), 422, "validation_failed");
    }
    expect((await json(await api("GET", "/webhooks", { key: apiKey }))).pagination.total).toBe(0);
  });

  it("never shows the secret again, and another business cannot see or delete an endpoint", async () => {
    const s = await setup();
    const other = await createAccount();
    const got = await json(await api("GET", `/webhooks/${s.webhook.id}`, { key: s.apiKey }));
    expect(got.secret).toBeUndefined();
    const listed = await json(await api("GET", "/webhooks", { key: s.apiKey }));
    expect(JSON.stringify(listed)).not.toContain("whsec_");
    await problem(await api("GET", `/webhooks/${s.webhook.id}`, { key: other.apiKey }), 404, "not_found");
    await problem(await api("DELETE", `/webhooks/${s.webhook.id}`, { key: other.apiKey }), 404, "not_found");
    await problem(await api("GET", `/webhooks/${s.webhook.id}/deliveries`, { key: other.apiKey }), 404, "not_found");
    expect((await api("DELETE", `/webhooks/${s.webhook.id}`, { key: s.apiKey })).status).toBe(204);
    await problem(await api("GET", `/webhooks/${s.webhook.id}`, { key: s.apiKey }), 404, "not_found");
  });
});
