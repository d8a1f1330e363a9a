/**
 * GET /webhooks/{id}/deliveries: every delivery of an endpoint with its attempts, newest first.
 * The endpoints here point at a receiver that never answers, so each attempt the queue consumer
 * makes is logged as failed (signed deliveries that succeed are in test/webhooks/delivery.test.ts).
 */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, problem, validationError } from "../../support/api";
import { at, book, bookingBody, plus } from "../../support/bookings";
import { eventually } from "../../support/eventually";
import { createWebhook } from "../../support/fixtures";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

const deliveryFields = ["attempts", "createdAt", "eventId", "eventType", "id", "status", "updatedAt"];

const listDeliveries = (key: string, webhookId: string, query = "") =>
  api("GET", `/webhooks/${webhookId}/deliveries${query}`, { key });

/** A business with a service and an endpoint subscribed to `events`. */
async function setup(events = ["booking.created", "booking.cancelled"]) {
  const account = await createAccount("Owner Clinic");
  const service = await createService(account.apiKey);
  const webhook = await createWebhook(account.apiKey, { events });
  return { ...account, serviceId: service.id as string, webhook };
}

describe("happy", () => {
  it("a booking makes one delivery of its event; the failed attempt is logged with its error and no status code", async () => {
    const s = await setup();
    await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    const res = await listDeliveries(s.apiKey, s.webhook.id);
    expect(res.status).toBe(200);
    const page = await json(res);
    expect(page.pagination).toEqual({ page: 1, limit: 20, total: 1, totalPages: 1, hasMore: false });
    const [delivery] = page.data;
    expect(Object.keys(delivery).sort()).toEqual(deliveryFields);
    expect(delivery).toMatchObject({ eventType: "booking.created", eventId: expect.stringMatching(/^evt_/) });

    const attempted = await eventually(async () => {
      const [d] = (await json(await listDeliveries(s.apiKey, s.webhook.id))).data;
      return d.attempts.length > 0 ? d : undefined;
    }, "the first attempt");
    expect(attempted).toMatchObject({ id: delivery.id, status: "failed" });
    expect(attempted.attempts[0]).toEqual({
      attempt: 1,
      at: expect.stringMatching(/Z$/),
      statusCode: null,
      error: expect.any(String),
      durationMs: expect.any(Number),
    });
  });

  it("lists only the events the endpoint subscribed to, newest first, with Link", async () => {
    const s = await setup(["booking.cancelled"]);
    const one = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    const two = await book(s.apiKey, bookingBody(s.serviceId, at(2, "11:00")));
    expect((await json(await listDeliveries(s.apiKey, s.webhook.id))).data).toEqual([]);
    for (const booking of [one, two]) {
      expect((await api("POST", `/bookings/${booking.id}/cancel`, { key: s.apiKey })).status).toBe(200);
    }
    const all = await json(await listDeliveries(s.apiKey, s.webhook.id));
    expect(all.data.map((d: { eventType: string }) => d.eventType)).toEqual(["booking.cancelled", "booking.cancelled"]);
    const res = await listDeliveries(s.apiKey, s.webhook.id, "?limit=1");
    const first = await json(res);
    expect(first.data.map((d: { id: string }) => d.id)).toEqual([all.data[0].id]);
    expect(first.pagination).toMatchObject({ total: 2, totalPages: 2, hasMore: true });
    expect(res.headers.get("Link")).toContain(
      `</api/v1/webhooks/${s.webhook.id}/deliveries?limit=1&page=2>; rel="next"`,
    );
    const second = await json(await listDeliveries(s.apiKey, s.webhook.id, "?limit=1&page=2"));
    expect(second.data.map((d: { id: string }) => d.id)).toEqual([all.data[1].id]);
  });
});

describe("a full page", () => {
  it("the largest page, limit=100, answers every delivery with its attempts (their ids bound as one list)", async () => {
    const s = await setup(["booking.created"]);
    // Two series of 52 daily occurrences: 104 bookings, so 104 deliveries of booking.created.
    for (const day of [2, 60]) {
      const start = at(day, "10:00");
      const body = { serviceId: s.serviceId, customerName: "Frida Kahlo", customerEmail: "frida@example.com" };
      const res = await api("POST", "/series", {
        key: s.apiKey,
        body: { ...body, startTime: start, endTime: plus(start, 30), recurrence: "FREQ=DAILY;COUNT=52" },
      });
      expect(res.status).toBe(201);
    }
    const page = await eventually(
      async () => {
        const body = await json(await listDeliveries(s.apiKey, s.webhook.id, "?limit=100"));
        return body.data.every((d: { attempts: unknown[] }) => d.attempts.length > 0) ? body : undefined;
      },
      "an attempt of every delivery on the page",
      30_000,
    );
    expect(page.data).toHaveLength(100);
    expect(page.pagination).toMatchObject({ limit: 100, total: 104, hasMore: true });
    for (const delivery of page.data) expect(delivery.attempts[0]).toMatchObject({ attempt: 1, statusCode: null });
  });
});

describe("error", () => {
  it("an unknown endpoint is 404, a deleted one too", async () => {
    const s = await setup();
    await problem(await listDeliveries(s.apiKey, "whk_unknown"), 404, "not_found");
    expect((await api("DELETE", `/webhooks/${s.webhook.id}`, { key: s.apiKey })).status).toBe(204);
    await problem(await listDeliveries(s.apiKey, s.webhook.id), 404, "not_found");
  });

  it.each([
    ["limit=101", "limit"],
    ["page=0", "page"],
    ["status=failed", "status"],
  ])("?%s is 422 naming the parameter", async (query, path) => {
    const s = await setup();
    await validationError(await listDeliveries(s.apiKey, s.webhook.id, `?${query}`), path);
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge", async () => {
    const s = await setup();
    await expectUnauthorized(await api("GET", `/webhooks/${s.webhook.id}/deliveries`), false);
  });

  it("a revoked key gets a 401 and no deliveries", async () => {
    const s = await setup();
    await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    const res = await listDeliveries(await revokedKey(s.businessId), s.webhook.id);
    const text = await res.clone().text();
    await expectUnauthorized(res, true);
    expect(text).not.toContain("booking.created");
  });

  it("another business gets the 404 of an unknown endpoint, and none of the owner's deliveries", async () => {
    const s = await setup();
    const other = await createAccount("Other");
    await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    const unknownId = unknownIdLike(s.webhook.id);
    await expectNotFoundLikeUnknown(
      await listDeliveries(other.apiKey, s.webhook.id),
      s.webhook.id,
      await listDeliveries(other.apiKey, unknownId),
      unknownId,
      ["Owner Clinic", "booking.created", "evt_", s.businessId],
    );
  });
});
