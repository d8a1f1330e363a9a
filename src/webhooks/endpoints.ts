/** Webhook endpoints a business registers: one by id, a new one under the limit, a page of them, a deletion. */

import { and, count, eq, isNull, lt, sql } from "drizzle-orm";
import { recordIfChanged } from "../audit/record";
import type { Database } from "../db/client";
import { webhookEndpoints } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { newId } from "../lib/ids";
import { insertWhere, loadOwned } from "../lib/rows";
import { newestFirst } from "../lists/newest-first";
import type { PageRequest } from "../lists/pagination";
import type { Actor } from "../types/actor";
import type { WebhookEventType } from "../types/webhook";
import { isLoopbackReceiver, localReceiversAllowed } from "./receiver-url";
import { newSigningSecret } from "./signing";

/** Endpoints (not deleted) one business may have: each event is delivered to every one of them. */
export const MAX_WEBHOOK_ENDPOINTS = 20;

type NewEndpoint = typeof webhookEndpoints.$inferInsert & {
  description: string | null;
  disabledReason: string | null;
  consecutiveFailures: number;
  deletedAt: string | null;
};

/**
 * `INSERT … SELECT … WHERE (endpoints of the business) < MAX`: the count and the insert are one
 * statement, so concurrent registrations cannot pass the bound together.
 */
function insertEndpointQuery(db: Database, row: NewEndpoint) {
  const live = db
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.businessId, row.businessId), isNull(webhookEndpoints.deletedAt)));
  return insertWhere(db, webhookEndpoints, row, lt(sql`(${live})`, MAX_WEBHOOK_ENDPOINTS));
}

/** Stores a new endpoint, or refuses with 409 `webhook_endpoint_limit` when the business has the maximum. */
async function insertEndpoint(db: Database, row: NewEndpoint, actor: Actor): Promise<void> {
  const [result] = await db.batch([
    insertEndpointQuery(db, row),
    recordIfChanged(db, {
      businessId: row.businessId,
      actor,
      action: "webhook.created",
      resource: { type: "webhook", id: row.id },
      fields: ["url", "events", ...(row.description === null ? [] : ["description"])],
    }),
  ]);
  if (result.meta.changes === 0) {
    throw new ApiError(
      "webhook_endpoint_limit",
      `A business can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints. Delete one it no longer needs (DELETE /webhooks/{id}), then register the new one.`,
    );
  }
}

type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** The business's endpoint with this id (not deleted), or a 404. */
export const loadEndpoint = (db: Database, businessId: string, id: string): Promise<EndpointRow> =>
  loadOwned(db, webhookEndpoints, "webhook endpoint", businessId, id, isNull(webhookEndpoints.deletedAt));

/** The public shape of an endpoint (never its secret). */
export function toWebhook(row: EndpointRow) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    status: row.status,
    disabledReason: row.disabledReason,
    consecutiveFailures: row.consecutiveFailures,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * Registers an endpoint for the business's booking events, with a new signing secret, answered
 * this once. A loopback receiver is a 422 at `url` except on a local development server.
 */
export async function registerEndpoint(
  env: Env,
  db: Database,
  { businessId, actor }: { businessId: string; actor: Actor },
  { url, events, description }: { url: string; events: WebhookEventType[]; description?: string },
) {
  if (isLoopbackReceiver(new URL(url)) && !localReceiversAllowed(env)) {
    throw new ApiError("validation_failed", "The request body is invalid.", {
      errors: [
        {
          path: "url",
          message: "Use a public https:// URL; local receivers work on a local development server only.",
        },
      ],
    });
  }
  const now = new Date().toISOString();
  const secret = newSigningSecret();
  const row = {
    id: newId("webhook"),
    businessId,
    url,
    description: description ?? null,
    events,
    secret,
    status: "active" as const,
    disabledReason: null,
    consecutiveFailures: 0,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  await insertEndpoint(db, row, actor);
  return { ...toWebhook(row), secret };
}

/** One page of the business's endpoints (not deleted), newest first, and how many there are. */
export async function endpointPage(db: Database, businessId: string, page: PageRequest) {
  const where = and(eq(webhookEndpoints.businessId, businessId), isNull(webhookEndpoints.deletedAt));
  const { rows, total } = await newestFirst(db, webhookEndpoints, where, page);
  return { items: rows.map(toWebhook), total };
}

/** Deletes the business's endpoint: deliveries to it stop at once. */
export async function deleteEndpoint(db: Database, businessId: string, id: string, actor: Actor): Promise<void> {
  const row = await loadEndpoint(db, businessId, id);
  // Kept (soft-deleted) so its delivery history stays consistent; it is never delivered to again.
  const live = and(eq(webhookEndpoints.id, row.id), isNull(webhookEndpoints.deletedAt));
  await db.batch([
    db.update(webhookEndpoints).set({ deletedAt: new Date().toISOString() }).where(live),
    recordIfChanged(db, {
      businessId,
      actor,
      action: "webhook.deleted",
      resource: { type: "webhook", id: row.id },
      fields: ["deletedAt"],
    }),
  ]);
}
