/**
 * The e-mail service as the sender uses it: Cloudflare Email Service's `send_email` binding with
 * its structured message (the platform writes the MIME, sets Message-ID and Date, signs DKIM),
 * bounded in time, and what its errors mean.
 */

/** Sends one message; resolves with the Message-ID the service gave it. */
export type Mailer = (message: EmailMessageBuilder) => Promise<{ messageId: string }>;

/** A send that has not answered by then is treated as failed (and retried). */
export const SEND_TIMEOUT_MS = 20_000;

/** The production mailer: `env.EMAIL`, bounded by SEND_TIMEOUT_MS. */
export function bindingMailer(env: Pick<Env, "EMAIL">): Mailer {
  return async (message) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("The e-mail service did not answer in time.")), SEND_TIMEOUT_MS);
    });
    try {
      return await Promise.race([env.EMAIL.send(message), timeout]);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  };
}

/**
 * Errors that sending the same message again cannot fix: the binding refuses the address or the
 * sender (`email to … not allowed`, a suppressed or invalid recipient, an unverified sender) or
 * the message itself (a field, a header, its size). Anything else (a timeout, the service's own
 * failure, its rate limit) is worth a retry.
 */
const permanent =
  /not allowed|suppress|invalid|too large|E_(RECIPIENT|SENDER|VALIDATION|FIELD|HEADER|CONTENT|TOO_MANY)/i;

/** Whether the service refused the message for good. */
export const isRefusal = (error: unknown) => permanent.test(error instanceof Error ? error.message : String(error));
