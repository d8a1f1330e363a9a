/**
 * Webhook endpoints and their delivery log. Endpoints point at `.invalid` hosts (RFC 6761), so
 * the server's delivery attempts never leave the machine; every endpoint is deleted again.
 */
import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually";
import type { components } from "./.generated/api";
import {
  api,
  bookingBody,
  createBooking,
  createOpenService,
  expectProblem,
  origin,
  pageOf,
  parseLinks,
  raw,
  utcAt,
} from "./support";

type Webhook = components["schemas"]["Webhook"];
type Delivery = components["schemas"]["WebhookDelivery"];

const created: string[] = [];
const unknownId = "whk_00000000000000000000000000";

async function createWebhook(description = "e2e"): Promise<Webhook & { secret: string }> {
  const { data, response } = await api.POST("/webhooks", {
    body: { url: "https://hooks.e2e.invalid/bookings", events: ["booking.created", "booking.cancelled"], description },
  });
  expect(response.status).toBe(201);
  if (!data) throw new Error("no webhook");
  created.push(data.id);
  return data;
}

afterAll(async () => {
  for (const id of created) await api.DELETE("/webhooks/{id}", { params: { path: { id } } });
});

describe("POST /webhooks", () => {
  it("registers an endpoint: 201, Location, and a signing secret shown once", async () => {
    const webhook = await createWebhook("Front desk");
    expect(webhook).toMatchObject({
      url: "https://hooks.e2e.invalid/bookings",
      description: "Front desk",
      events: ["booking.created", "booking.cancelled"],
      status: "active",
      disabledReason: null,
      consecutiveFailures: 0,
    });
    expect(webhook.id).toMatch(/^whk_/);
    expect(webhook.secret).toMatch(/^whsec_/);

    const located = await raw("GET", "/webhooks/{id}", { params: { id: webhook.id } });
    expect(located.url).toBe(new URL(`/api/v1/webhooks/${webhook.id}`, origin).href);
    const body = (await located.json()) as Record<string, unknown>;
    expect(body).not.toHaveProperty("secret");
  });

  it("returns Location pointing at the new endpoint", async () => {
    const { data, response } = await api.POST("/webhooks", {
      body: { url: "https://hooks.e2e.invalid/location", events: ["booking.updated"] },
    });
    expect(response.status).toBe(201);
    created.push(data?.id ?? "");
    expect(response.headers.get("location")).toBe(`/api/v1/webhooks/${data?.id}`);
  });

  it("answers 422 for a plain-HTTP URL and a repeated event", async () => {
    const http = await api.POST("/webhooks", {
      body: { url: "http://hooks.e2e.invalid/x", events: ["booking.created"] },
    });
    expect(expectProblem(http.response, http.error, 422, "validation_failed").errors?.map((e) => e.path)).toContain(
      "url",
    );
    const repeated = await api.POST("/webhooks", {
      body: { url: "https://hooks.e2e.invalid/x", events: ["booking.created", "booking.created"] },
    });
    expectProblem(repeated.response, repeated.error, 422, "validation_failed");
  });
});

describe("GET /webhooks", () => {
  it("lists the endpoints with pagination and Link", async () => {
    const webhook = await createWebhook();
    const { data, response } = await api.GET("/webhooks", { params: { query: { limit: 100 } } });
    expect(response.status).toBe(200);
    expect(data?.data.map((w) => w.id)).toContain(webhook.id);
    expect(pageOf(parseLinks(response.headers.get("link")).first)).toEqual({ page: 1, limit: 100 });
  });

  it("answers 422 for an unknown query field", async () => {
    const response = await raw("GET", "/webhooks", { query: "status=active" });
    expectProblem(response, await response.json(), 422, "validation_failed");
  });
});

describe("GET /webhooks/{id}", () => {
  it("answers 404 for an unknown id and 422 for an over-long one", async () => {
    const missing = await api.GET("/webhooks/{id}", { params: { path: { id: unknownId } } });
    expectProblem(missing.response, missing.error, 404, "not_found", `/api/v1/webhooks/${unknownId}`);
    const long = await api.GET("/webhooks/{id}", { params: { path: { id: "w".repeat(65) } } });
    expectProblem(long.response, long.error, 422, "validation_failed");
  });
});

describe("GET /webhooks/{id}/deliveries and POST …/retry", () => {
  it("logs a delivery for a new booking, and queues it again on retry (202)", async () => {
    const webhook = await createWebhook("deliveries");
    const service = await createOpenService();
    const booking = await createBooking(bookingBody(service, utcAt(8, 10)));

    const deliveries = await eventually(
      async () => {
        const { data, response } = await api.GET("/webhooks/{id}/deliveries", { params: { path: { id: webhook.id } } });
        expect(response.status).toBe(200);
        return data?.data.length ? data.data : undefined;
      },
      "the booking's delivery",
      15_000,
      250,
    );
    expect(deliveries.map((d) => d.eventType)).toContain("booking.created");
    expect(booking.id).toMatch(/^bkg_/);

    const delivery = deliveries[0] as Delivery;
    const { data, response } = await api.POST("/webhooks/{id}/deliveries/{deliveryId}/retry", {
      params: { path: { id: webhook.id, deliveryId: delivery.id } },
    });
    expect(response.status).toBe(202);
    expect(data).toMatchObject({ id: delivery.id, eventId: delivery.eventId });
  });

  it("answers 404 for an unknown endpoint or delivery", async () => {
    const list = await api.GET("/webhooks/{id}/deliveries", { params: { path: { id: unknownId } } });
    expectProblem(list.response, list.error, 404, "not_found");
    const webhook = await createWebhook();
    const retry = await api.POST("/webhooks/{id}/deliveries/{deliveryId}/retry", {
      params: { path: { id: webhook.id, deliveryId: "dlv_00000000000000000000000000" } },
    });
    expectProblem(retry.response, retry.error, 404, "not_found");
  });

  it("answers 422 for an over-long delivery id", async () => {
    const webhook = await createWebhook();
    const { error, response } = await api.POST("/webhooks/{id}/deliveries/{deliveryId}/retry", {
      params: { path: { id: webhook.id, deliveryId: "d".repeat(121) } },
    });
    expect(expectProblem(response, error, 422, "validation_failed").errors?.map((e) => e.path)).toContain("deliveryId");
  });

  it("answers 422 for limit 0", async () => {
    const webhook = await createWebhook();
    const { error, response } = await api.GET("/webhooks/{id}/deliveries", {
      params: { path: { id: webhook.id }, query: { limit: 0 } },
    });
    expectProblem(response, error, 422, "validation_failed");
  });
});

describe("DELETE /webhooks/{id}", () => {
  it("deletes (204, no body); the endpoint is gone afterwards (404)", async () => {
    const webhook = await createWebhook();
    const { response } = await api.DELETE("/webhooks/{id}", { params: { path: { id: webhook.id } } });
    expect(response.status).toBe(204);
    expect(await response.clone().text()).toBe("");
    const after = await api.GET("/webhooks/{id}", { params: { path: { id: webhook.id } } });
    expectProblem(after.response, after.error, 404, "not_found");
    const again = await api.DELETE("/webhooks/{id}", { params: { path: { id: webhook.id } } });
    expectProblem(again.response, again.error, 404, "not_found");
  });

  it("answers 422 for an over-long id", async () => {
    const { error, response } = await api.DELETE("/webhooks/{id}", { params: { path: { id: "w".repeat(65) } } });
    expectProblem(response, error, 422, "validation_failed");
  });
});
