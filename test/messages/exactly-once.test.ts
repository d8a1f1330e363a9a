/**
 * One message per event, and one send per message: under storms of concurrent requests, an
 * idempotent replay, the queue delivering an event twice, and faults injected at each step — the
 * calendar's D1 write and queue publish (test/support/faults.ts), the send itself and the moment between
 * sending and recording (test/support/worker.ts's mailbox). A message recorded as sent is never sent
 * again; one whose send may have happened unrecorded is sent again with the same
 * X-Booking-Message-Id and the same content.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import type { ServiceCalendar } from "../../src/calendar/service/object/service-calendar";
import { takeLease } from "../../src/messages/lease";
import { api, json } from "../support/api";
import { at, bookingBody, calendarStub, plus } from "../support/bookings";
import { eventually } from "../support/eventually";
import { injectFaults } from "../support/faults";
import {
  delivered,
  eventOf,
  mailingBusiness,
  messagesOf,
  redeliver,
  sentTo,
  settledMessages,
  triesOf,
} from "../support/messages";
import { mailbox } from "../support/worker";

afterEach(() => {
  mailbox.faults = {};
});

/** The calendar's events wait in it: the queue never hears of them until the fault is cleared. */
const holdPublishes = (businessId: string, serviceId: string) =>
  injectFaults(calendarStub(businessId, serviceId), {
    publish: async () => {
      throw new Error("injected: the calendar reset before the queue had its events");
    },
  });

/** Waits for a message to be recorded (the calendar's D1 write has it) and answers it. */
const recorded = (key: string, bookingId: string) =>
  eventually(async () => (await messagesOf(key, bookingId))[0], `the message of ${bookingId}`);

describe("storms", () => {
  it("20 concurrent creates: 20 bookings, each with exactly one confirmation, sent once", async () => {
    const m = await mailingBusiness();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api("POST", "/bookings", {
          key: m.apiKey,
          body: bookingBody(m.service.id, plus(at(4 + Math.floor(i / 10), "09:00"), 30 * (i % 10))),
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(201));
    const bookings = await Promise.all(answers.map(json));
    for (const booking of bookings) {
      const [message] = await settledMessages(m.apiKey, booking.id, 1);
      expect(message).toMatchObject({ kind: "confirmation", status: "sent" });
      expect(delivered(triesOf(message?.id as string))).toHaveLength(1);
      expect(sentTo(booking.customerEmail)).toHaveLength(1);
    }
  });

  it("10 concurrent cancels of one booking: one cancellation, one notice", async () => {
    const m = await mailingBusiness();
    const booking = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, at(3, "10:00")) }),
    );
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api("POST", `/bookings/${booking.id}/cancel`, { key: m.apiKey, body: {} })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    const messages = await settledMessages(m.apiKey, booking.id, 2);
    expect(messages.map((x) => [x.kind, x.status])).toEqual([
      ["confirmation", "sent"],
      ["cancelled", "sent"],
    ]);
    expect(sentTo(booking.customerEmail)).toHaveLength(2);
  });

  it("an idempotent replay sends nothing new, even five at once", async () => {
    const m = await mailingBusiness();
    const body = bookingBody(m.service.id, at(3, "11:00"));
    const headers = { "Idempotency-Key": "book-once" };
    const first = await json(await api("POST", "/bookings", { key: m.apiKey, body, headers }));
    await settledMessages(m.apiKey, first.id, 1);
    const replays = await Promise.all(
      Array.from({ length: 5 }, () => api("POST", "/bookings", { key: m.apiKey, body, headers })),
    );
    for (const replay of replays) expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    // A later booking's mail has gone out: a replay's would have by then.
    const later = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, at(3, "12:00")) }),
    );
    await settledMessages(m.apiKey, later.id, 1);
    expect(await messagesOf(m.apiKey, first.id)).toHaveLength(1);
    expect(sentTo(body.customerEmail)).toHaveLength(1);
  });
});

describe("faults in the sender", () => {
  it("a failed send leaves the message queued; the queue's retry sends it once, with the same id", async () => {
    const m = await mailingBusiness();
    mailbox.faults.before = 1;
    const booking = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, at(3, "13:00")) }),
    );
    const failed = await eventually(async () => {
      const [message] = await messagesOf(m.apiKey, booking.id);
      return message?.attempts === 1 && message.detail ? message : undefined;
    }, "the failed first try");
    expect(failed).toMatchObject({ status: "queued", detail: "injected: the e-mail service failed" });
    expect(await redeliver(eventOf(failed.id))).toBe(false);
    const [sent] = await messagesOf(m.apiKey, booking.id);
    expect(sent).toMatchObject({ status: "sent", attempts: 2, detail: null });
    const tries = triesOf(failed.id);
    expect(tries.map((t) => t.messageId !== undefined)).toEqual([false, true]);
    // Recorded as sent: another delivery of the event sends nothing.
    expect(await redeliver(eventOf(failed.id), 3)).toBe(false);
    expect(triesOf(failed.id)).toHaveLength(2);
  });

  it("a reset between sending and recording: the retry sends the same message again, then never again", async () => {
    const m = await mailingBusiness();
    mailbox.faults.after = 1;
    const booking = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, at(3, "14:00")) }),
    );
    const unrecorded = await eventually(async () => {
      const [message] = await messagesOf(m.apiKey, booking.id);
      return message?.attempts === 1 && message.detail ? message : undefined;
    }, "the unrecorded send");
    expect(unrecorded.status).toBe("queued");
    expect(delivered(triesOf(unrecorded.id))).toHaveLength(1);
    expect(await redeliver(eventOf(unrecorded.id))).toBe(false);
    const [first, second] = delivered(triesOf(unrecorded.id));
    expect(second?.message).toEqual(first?.message);
    expect(second?.message.headers?.["X-Booking-Message-Id"]).toBe(unrecorded.id);
    const [sent] = await messagesOf(m.apiKey, booking.id);
    expect(sent).toMatchObject({ status: "sent", messageIdHeader: second?.messageId });
    expect(await redeliver(eventOf(unrecorded.id), 3)).toBe(false);
    expect(triesOf(unrecorded.id)).toHaveLength(2);
  });

  it("a consumer that leased it and died holds it until its lease lapses; then the retry sends it", async () => {
    const m = await mailingBusiness();
    await holdPublishes(m.businessId, m.service.id);
    const booking = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, at(3, "15:00")) }),
    );
    const message = await recorded(m.apiKey, booking.id);
    // A consumer leases it, and is reset before it sends or records anything.
    expect(await takeLease(env.DB_0, message.id, Date.now(), 25)).toBeDefined();
    expect(await redeliver(eventOf(message.id))).toBe(true);
    expect(triesOf(message.id)).toEqual([]);
    // A minute later the lease has lapsed.
    await env.DB_0.prepare("UPDATE messages SET lease_until = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1).toISOString(), message.id)
      .run();
    expect(await redeliver(eventOf(message.id), 3)).toBe(false);
    expect(delivered(triesOf(message.id))).toHaveLength(1);
    expect((await messagesOf(m.apiKey, booking.id))[0]).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("the queue delivering an event five times at once sends it once", async () => {
    const m = await mailingBusiness();
    await holdPublishes(m.businessId, m.service.id);
    const booking = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, at(3, "16:00")) }),
    );
    const message = await recorded(m.apiKey, booking.id);
    await Promise.all(Array.from({ length: 5 }, () => redeliver(eventOf(message.id))));
    expect(delivered(triesOf(message.id))).toHaveLength(1);
    expect((await messagesOf(m.apiKey, booking.id))[0]?.status).toBe("sent");
  });
});

describe("faults in the calendar", () => {
  it("D1 down at the booking: the message comes with the outbox's retry, sent once", async () => {
    const m = await mailingBusiness();
    const stub = calendarStub(m.businessId, m.service.id);
    await injectFaults(stub, {
      writeToD1: async () => ({ ok: false, error: "injected: D1 unavailable" }),
    });
    const res = await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, at(3, "10:30")) });
    expect(res.status).toBe(201);
    const booking = await json(res);
    expect(sentTo(booking.customerEmail)).toEqual([]);
    await injectFaults(stub, { writeToD1: undefined });
    await runInDurableObject(stub, (_instance: ServiceCalendar, state) => {
      state.storage.sql.exec("UPDATE outbox SET next_attempt_ms = 0");
      state.storage.sql.exec("UPDATE events SET next_attempt_ms = 0");
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const [message] = await settledMessages(m.apiKey, booking.id, 1);
    expect(message?.status).toBe("sent");
    expect(delivered(triesOf(message?.id as string))).toHaveLength(1);
  });

  it("the calendar reset before the queue had the event: its alarm publishes it, and it is sent once", async () => {
    const m = await mailingBusiness();
    await holdPublishes(m.businessId, m.service.id);
    const booking = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, at(3, "11:30")) }),
    );
    const message = await recorded(m.apiKey, booking.id);
    expect(message.status).toBe("queued");
    const stub = calendarStub(m.businessId, m.service.id);
    await injectFaults(stub, { publish: undefined });
    await runInDurableObject(stub, (_instance: ServiceCalendar, state) => {
      state.storage.sql.exec("UPDATE events SET next_attempt_ms = 0");
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const [sent] = await settledMessages(m.apiKey, booking.id, 1);
    expect(sent?.status).toBe("sent");
    expect(delivered(triesOf(message.id))).toHaveLength(1);
  });
});
