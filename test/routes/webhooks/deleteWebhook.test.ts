/** DELETE /webhooks/{id}: stops all deliveries to the endpoint at once. */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookDeliveries } from "../../../src/db/schema";
import { api, createAccount, createService, db, json, problem, validationError } from "../../support/api";
import { at, book, bookingBody } from "../../support/bookings";
import { createWebhook } from "../../support/fixtures";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

const remove = (key: string, id: string) => api("DELETE", `/webhooks/${id}`, { key });

/** Deliveries D1 holds for an endpoint (every delivery is made there, with the booking's event). */
const deliveriesOf = (endpointId: string) =>
  db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));

describe("happy", () => {
  it("204 without a body; the endpoint is gone from reads, the list and its delivery log", async () => {
    const { apiKey } = await createAccount();
    const webhook = await createWebhook(apiKey);
    const res = await remove(apiKey, webhook.id);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    await problem(await api("GET", `/webhooks/${webhook.id}`, { key: apiKey }), 404, "not_found");
    await problem(await api("GET", `/webhooks/${webhook.id}/deliveries`, { key: apiKey }), 404, "not_found");
    expect((await json(await api("GET", "/webhooks", { key: apiKey }))).data).toEqual([]);
  });

  it("a booking after the deletion makes no delivery to it, while an endpoint kept gets one", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const kept = await createWebhook(apiKey);
    const deleted = await createWebhook(apiKey);
    expect((await remove(apiKey, deleted.id)).status).toBe(204);
    await book(apiKey, bookingBody(service.id, at(2, "10:00")));
    expect(await deliveriesOf(deleted.id)).toEqual([]);
    expect((await deliveriesOf(kept.id)).map((d) => d.eventType)).toEqual(["booking.created"]);
  });
});

describe("error", () => {
  it("an unknown id is 404; deleting twice is a 404 the second time", async () => {
    const { apiKey } = await createAccount();
    await problem(await remove(apiKey, "whk_unknown"), 404, "not_found");
    const webhook = await createWebhook(apiKey);
    expect((await remove(apiKey, webhook.id)).status).toBe(204);
    await problem(await remove(apiKey, webhook.id), 404, "not_found");
  });

  it("an id longer than 64 characters is 422 at id", async () => {
    const { apiKey } = await createAccount();
    await validationError(await remove(apiKey, `whk_${"x".repeat(61)}`), "id");
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge; the endpoint stays", async () => {
    const { apiKey } = await createAccount();
    const webhook = await createWebhook(apiKey);
    await expectUnauthorized(await api("DELETE", `/webhooks/${webhook.id}`), false);
    expect((await api("GET", `/webhooks/${webhook.id}`, { key: apiKey })).status).toBe(200);
  });

  it("a revoked key: 401; the endpoint stays", async () => {
    const { apiKey, businessId } = await createAccount();
    const webhook = await createWebhook(apiKey);
    await expectUnauthorized(await remove(await revokedKey(businessId), webhook.id), true);
    expect((await api("GET", `/webhooks/${webhook.id}`, { key: apiKey })).status).toBe(200);
  });

  it("another business gets the 404 of an unknown id; the endpoint stays and keeps receiving", async () => {
    const owner = await createAccount("Owner Clinic");
    const other = await createAccount("Other");
    const service = await createService(owner.apiKey);
    const webhook = await createWebhook(owner.apiKey);
    const unknownId = unknownIdLike(webhook.id);
    await expectNotFoundLikeUnknown(
      await remove(other.apiKey, webhook.id),
      webhook.id,
      await remove(other.apiKey, unknownId),
      unknownId,
      ["Owner Clinic", owner.businessId],
    );
    expect((await json(await api("GET", `/webhooks/${webhook.id}`, { key: owner.apiKey }))).status).toBe("active");
    await book(owner.apiKey, bookingBody(service.id, at(2, "10:00")));
    expect(await deliveriesOf(webhook.id)).toHaveLength(1);
  });
});
