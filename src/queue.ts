/**
 * The Worker's queue consumers: the webhook queue (deliveries and customers' e-mails of each
 * event) and its dead-letter queue. `mailerOf` gives the e-mail service a batch sends through:
 * the `EMAIL` binding in production (src/index.ts); the tests record what it sends.
 */

import { sendSignInMails } from "./access/sign-in-mail";
import type { DeliveryMessage } from "./audit/events";
import { payloadWithLink } from "./manage-links/present";
import type { Mailer } from "./messages/mailer";
import { deadLetterWebhooks, deliverWebhooks } from "./webhooks/deliver";

export const queueConsumer =
  (mailerOf: (env: Env) => Mailer) =>
  async (batch: MessageBatch<DeliveryMessage>, env: Env): Promise<void> => {
    // Members' sign-in links share the queue (src/access/sign-in-mail.ts); they are not events.
    const signIns = batch.messages.filter((m) => m.body.signInLinkId);
    if (signIns.length > 0) {
      if (batch.queue.endsWith("-dlq")) for (const m of signIns) m.ack();
      else await sendSignInMails(env, mailerOf(env), signIns);
      const rest = batch.messages.filter((m) => !m.body.signInLinkId);
      if (rest.length === 0) return;
      batch = { ...batch, queue: batch.queue, messages: rest };
    }
    return batch.queue.endsWith("-dlq")
      ? deadLetterWebhooks(batch, env)
      : deliverWebhooks(batch, env, payloadWithLink, mailerOf(env));
  };
