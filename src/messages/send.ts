/**
 * The sender: the webhook queue's consumer sends an event's messages (src/webhooks/deliver.ts).
 * Each message is leased (one consumer at a time, counted against the business's hour), built,
 * sent through the e-mail binding and settled in D1. What a fault at each step does is in
 * docs/consistency.md ("Messages to customers"): a message is never sent again once recorded
 * as sent; one whose send may have happened without being recorded is sent again, with the same
 * `X-Booking-Message-Id`.
 */
import { errorText } from "../lib/api-error";
import { raiseFailure } from "./alert";
import { compose } from "./compose";
import { failOverLimit, hourlyLimit, queuedOf, type SendOutcome, settleMessage, takeLease } from "./lease";
import { isRefusal, type Mailer } from "./mailer";

/** What became of an event's messages: whether any is worth another try later. */
export type SendResult = { retry: boolean };

/** Sends one queued message; answers whether it should be tried again later. */
async function sendOne(env: Env, mailer: Mailer, id: string, limit: number): Promise<boolean> {
  const now = Date.now();
  const row = await takeLease(env.DB, id, now, limit);
  if (!row) {
    if (await failOverLimit(env.DB, id, now, limit)) {
      await raiseFailure(env, { messageId: id, reason: "hourly_limit" }, now);
      return false;
    }
    // Sent or failed already (nothing to do), or another consumer holds it: look again later.
    const { results } = await env.DB.prepare("SELECT status FROM messages WHERE id = ?").bind(id).all();
    return (results[0] as { status: string } | undefined)?.status === "queued";
  }
  const composed = await compose(env, row);
  if (!composed.ok) {
    await settleMessage(env.DB, id, null, composed.outcome, now);
    if (composed.outcome.reason === "gave_up") await raiseFailure(env, { messageId: id, reason: "gave_up" }, now);
    return false;
  }
  let outcome: SendOutcome;
  try {
    const { messageId } = await mailer(composed.message);
    outcome = { kind: "sent", messageIdHeader: messageId };
  } catch (error) {
    outcome = isRefusal(error)
      ? { kind: "failed", reason: "refused", detail: errorText(error) }
      : { kind: "retry", detail: errorText(error) };
  }
  await settleMessage(env.DB, id, composed.subject, outcome, Date.now());
  if (outcome.kind === "failed") await raiseFailure(env, { messageId: id, reason: outcome.reason }, Date.now());
  return outcome.kind === "retry";
}

/**
 * Sends every queued message of an event, one after another. A message that could not be sent
 * now (the service failed, or another consumer holds it) asks for the queue's retry.
 */
export async function sendMessages(env: Env, mailer: Mailer, eventId: string): Promise<SendResult> {
  const limit = hourlyLimit(env);
  let retry = false;
  for (const id of await queuedOf(env.DB, eventId)) {
    if (await sendOne(env, mailer, id, limit)) retry = true;
  }
  return { retry };
}
