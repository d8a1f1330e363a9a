/** The webhooks' request and answer bodies (`/webhooks`), shared by its routes and the office's webhooks page. */

import { utcTimestamp } from "../lib/datetime";
import { z } from "../lib/zod";
import { listOf } from "../lists/pagination";
import { webhookEventTypes } from "../types/webhook";
import { isLoopbackReceiver, publicReceiverProblem } from "./receiver-url";

export const WebhookEventTypeSchema = z.enum(webhookEventTypes).openapi("WebhookEventType");

export const CreateWebhookSchema = z
  .strictObject({
    url: z
      .url()
      .max(2000)
      .superRefine((value, ctx) => {
        // Zod runs this check after a failed .url() too; that failure is already reported.
        if (!URL.canParse(value)) return;
        const url = new URL(value);
        // Loopback receivers pass here; the handler accepts them only on a local development server.
        if (isLoopbackReceiver(url)) return;
        const problem = publicReceiverProblem(url);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      })
      .openapi({
        description:
          "A public HTTPS URL: a host name (no IP address, no local or private-network name), port 443, no user name or password.",
        example: "https://example.com/hooks/bookings",
      }),
    events: z
      .array(WebhookEventTypeSchema)
      .min(1)
      .max(webhookEventTypes.length)
      .refine((e) => new Set(e).size === e.length, {
        message: "List each event once.",
      })
      .openapi({
        uniqueItems: true,
        description: "The events to receive, each once.",
        example: ["booking.created", "booking.cancelled"],
      }),
    description: z.string().trim().max(500).optional(),
  })
  .openapi("CreateWebhook");

export const WebhookSchema = z
  .object({
    id: z.string().openapi({ example: "whk_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(WebhookEventTypeSchema),
    status: z.enum(["active", "disabled"]),
    disabledReason: z.string().nullable(),
    consecutiveFailures: z.number().int().openapi({ description: "Dead-lettered deliveries in a row." }),
    createdAt: utcTimestamp,
    updatedAt: utcTimestamp,
  })
  .openapi("Webhook");

export const CreatedWebhookSchema = WebhookSchema.extend({
  secret: z.string().openapi({
    description: "Standard Webhooks signing secret (`whsec_…`). Shown only in this response.",
  }),
}).openapi("CreatedWebhook");

export const DeliverySchema = z
  .object({
    id: z.string(),
    eventId: z.string().openapi({ description: "Also the `webhook-id` header of every send." }),
    eventType: WebhookEventTypeSchema,
    status: z.enum(["pending", "succeeded", "failed", "dead"]),
    attempts: z.array(
      z.object({
        attempt: z.number().int(),
        at: utcTimestamp,
        statusCode: z.number().int().nullable(),
        error: z.string().nullable(),
        durationMs: z.number().int(),
      }),
    ),
    createdAt: utcTimestamp,
    updatedAt: utcTimestamp,
  })
  .openapi("WebhookDelivery");

export const WebhookListSchema = listOf(WebhookSchema, "WebhookList");
export const DeliveryListSchema = listOf(DeliverySchema, "WebhookDeliveryList");
