/**
 * Queue messages name their tenant's shard: the calendar of a business on shard 1 publishes its
 * booking event, and the consumer attempts the delivery it finds on shard 1. A message whose
 * event is not on the shard it names (none: shard 0) is looked for on every shard.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { DeliveryMessage } from "../../src/audit/events";
import { payloadWithLink } from "../../src/manage-links/present";
import { deliverWebhooks } from "../../src/webhooks/deliver";
import { api, createAccount, createService, json } from "../support/api";
import { at, book, bookingBody } from "../support/bookings";
import { createWebhook } from "../support/fixtures";
import { recordingMailer } from "../support/worker";

/** The deliveries of an endpoint once one was attempted (the queue runs on its own), or a timeout. */
async function attempted(key: string, webhookId: string) {
  for (const started = Date.now(); Date.now() - started < 10_000; ) {
    const { data } = await json(await api("GET", `/webhooks/${webhookId}/deliveries`, { key }));
    if (data[0]?.status === "failed") return data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("timed out waiting for the first attempt");
}

describe("queue", () => {
  it("an event of a business on shard 1 is delivered from shard 1", async () => {
    const { apiKey } = await createAccount("Queued on one", 1);
    const webhook = await createWebhook(apiKey);
    const service = await createService(apiKey);
    await book(apiKey, bookingBody(service.id, at(5, "09:00")));
    // The real pipeline: calendar → queue → consumer, which found the delivery on shard 1.
    const [delivery] = await attempted(apiKey, webhook.id);
    const stored = await env.DB_1.prepare("SELECT status FROM webhook_deliveries WHERE id = ?")
      .bind(delivery.id)
      .first();
    expect(stored).toEqual({ status: "failed" });

    // Sent again by hand: with its shard the consumer finds the delivery (and retries it, the
    // receiver being unreachable); without one (or naming the wrong one, as after a move) the
    // event is not on shard 0, so it is looked for on every shard and found on 1; an event no
    // shard has is acked.
    for (const [shard, eventId, outcome] of [
      [1, delivery.eventId, "retry"],
      [undefined, delivery.eventId, "retry"],
      [0, delivery.eventId, "retry"],
      [0, "evt_00000000000000000000000000", "ack"],
    ] as const) {
      const batch = createMessageBatch<DeliveryMessage>("booking-webhooks", [
        { id: `again-${shard}-${outcome}`, timestamp: new Date(), attempts: 2, body: { eventId, shard } },
      ]);
      await deliverWebhooks(batch, env, payloadWithLink, recordingMailer(env));
      const result = await getQueueResult(batch, createExecutionContext());
      expect(outcome === "retry" ? result.retryMessages.length : result.explicitAcks.length).toBe(1);
    }
  });
});
