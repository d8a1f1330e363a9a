import { app } from "./app";
import { nightly } from "./maintenance";
import { payloadWithLink } from "./manage-links/present";
import { deadLetterWebhooks, deliverWebhooks } from "./webhooks/deliver";
import type { WebhookMessage } from "./webhooks/events";

export { ProviderCalendar, ResourceCalendar, ServiceCalendar } from "./calendar";

export default {
  fetch: app.fetch,
  scheduled: (_controller, env, ctx) => ctx.waitUntil(nightly(env)),
  queue: (batch, env) =>
    batch.queue.endsWith("-dlq") ? deadLetterWebhooks(batch, env) : deliverWebhooks(batch, env, payloadWithLink),
} satisfies ExportedHandler<Env, WebhookMessage>;
