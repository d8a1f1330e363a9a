/**
 * POST /webhooks/{id}/deliveries/{deliveryId}/retry: queues one more attempt of any delivery of an
 * active endpoint, even a dead one. The receiver here never answers, so each attempt the queue
 * consumer makes is logged as failed.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookDeliveries, webhookEndpoints } from "../../../src/db/schema";
import { api, createAccount, createService, db, json, problem, validationError } from "../../support/api";
import { at, book, bookingBody } from "../../support/bookings";
import { eventually } from "../../support/eventually";
import { createWebhook } from "../../support/fixtures";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

type Delivery = { id: string; eventId: string; status: string; attempts: unknown[] };

const retry = (key: string, webhookId: string, deliveryId: string) =>
  api("POST", `/webhooks/${webhookId}/deliveries/${deliveryId}/retry`, { key });

/** The endpoint's deliveries as its log lists them. */
const deliveries = async (key: string, webhookId: string): Promise<Delivery[]> =>
  (await json(await api("GET", `/webhooks/${webhookId}/deliveries`, { key }))).data;

/**
 * A business whose endpoint has one delivery (of a booking.created) that the queue has tried once
 * and, here, given up on: it is `dead`, as after its last retry.
 */
async function deadDelivery() {
  const account = await createAccount("Owner Clinic");
  const service = await createService(account.apiKey);
  const webhook = await createWebhook(account.apiKey);
  await book(account.apiKey, bookingBody(service.id, at(2, "10:00")));
  const tried = await eventually(async () => {
    const [d] = await deliveries(account.apiKey, webhook.id);
    return d && d.attempts.length === 1 && d.status === "failed" ? d : undefined;
  }, "the first attempt");
  await db().update(webhookDeliveries).set({ status: "dead" }).where(eq(webhookDeliveries.id, tried.id));
  return { ...account, webhook, delivery: { ...tried, status: "dead" } };
}

describe("happy", () => {
  it("202 with the delivery pending again; the queue makes one more attempt of a dead delivery", async () => {
    const s = await deadDelivery();
    const res = await retry(s.apiKey, s.webhook.id, s.delivery.id);
    expect(res.status).toBe(202);
    expect(await json(res)).toMatchObject({ id: s.delivery.id, eventId: s.delivery.eventId, status: "pending" });
    const retried = await eventually(async () => {
      const [d] = await deliveries(s.apiKey, s.webhook.id);
      return d && d.attempts.length === 2 ? d : undefined;
    }, "the second attempt");
    expect(retried).toMatchObject({ id: s.delivery.id, status: "failed", attempts: [{ attempt: 1 }, { attempt: 2 }] });
  });
});

describe("error", () => {
  it("an unknown delivery, or one of another endpoint of the business, is 404", async () => {
    const s = await deadDelivery();
    const sibling = await createWebhook(s.apiKey);
    await problem(await retry(s.apiKey, s.webhook.id, "dlv_unknown"), 404, "not_found");
    await problem(await retry(s.apiKey, sibling.id, s.delivery.id), 404, "not_found");
    await problem(await retry(s.apiKey, "whk_unknown", s.delivery.id), 404, "not_found");
    expect((await deliveries(s.apiKey, s.webhook.id))[0]?.status).toBe("dead");
  });

  it("a disabled endpoint is a 409 invalid_transition and its delivery stays dead", async () => {
    const s = await deadDelivery();
    // What the dead-letter consumer does after five dead deliveries in a row.
    await db()
      .update(webhookEndpoints)
      .set({ status: "disabled", disabledReason: "5 deliveries in a row went dead" })
      .where(eq(webhookEndpoints.id, s.webhook.id));
    await problem(await retry(s.apiKey, s.webhook.id, s.delivery.id), 409, "invalid_transition");
    expect((await deliveries(s.apiKey, s.webhook.id))[0]?.status).toBe("dead");
  });

  it("a delivery id longer than 120 characters is 422 at deliveryId", async () => {
    const { apiKey } = await createAccount();
    const webhook = await createWebhook(apiKey);
    await validationError(await retry(apiKey, webhook.id, "d".repeat(121)), "deliveryId");
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge; the delivery stays dead", async () => {
    const s = await deadDelivery();
    await expectUnauthorized(await api("POST", `/webhooks/${s.webhook.id}/deliveries/${s.delivery.id}/retry`), false);
    expect((await deliveries(s.apiKey, s.webhook.id))[0]?.status).toBe("dead");
  });

  it("a revoked key: 401; the delivery stays dead", async () => {
    const s = await deadDelivery();
    await expectUnauthorized(await retry(await revokedKey(s.businessId), s.webhook.id, s.delivery.id), true);
    expect((await deliveries(s.apiKey, s.webhook.id))[0]?.status).toBe("dead");
  });

  it("another business gets the 404 of an unknown endpoint; the delivery stays dead", async () => {
    const s = await deadDelivery();
    const other = await createAccount("Other");
    const unknownId = unknownIdLike(s.webhook.id);
    await expectNotFoundLikeUnknown(
      await retry(other.apiKey, s.webhook.id, s.delivery.id),
      s.webhook.id,
      await retry(other.apiKey, unknownId, s.delivery.id),
      unknownId,
      ["Owner Clinic", s.delivery.eventId, s.businessId],
    );
    expect((await deliveries(s.apiKey, s.webhook.id))[0]?.status).toBe("dead");
  });
});
