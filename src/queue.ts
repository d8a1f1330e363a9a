/**
 * The Worker's queue consumers: the webhook queue (deliveries and customers' e-mails of each
 * event) and its dead-letter queue. `mailerOf` gives the e-mail service a batch sends through:
 * the `EMAIL` binding in production (src/index.ts); the tests record what it sends.
 */

import type { WebhookMessage } from "./events/events";
import { payloadWithLink } from "./manage-links/present";
import type { Mailer } from "./messages/mailer";
import { deadLetterWebhooks, deliverWebhooks } from "./webhooks/deliver";

export const queueConsumer =
  (mailerOf: (env: Env) => Mailer) =>
  (batch: MessageBatch<WebhookMessage>, env: Env): Promise<void> =>
    batch.queue.endsWith("-dlq")
      ? deadLetterWebhooks(batch, env)
      : deliverWebhooks(batch, env, payloadWithLink, mailerOf(env));
