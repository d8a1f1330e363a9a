/** What composing a message answers, and the parts both composers share. */

import { linkOpens, linkSettings } from "../manage-links/present";
import { linkKey, manageToken } from "../manage-links/tokens";
import type { BookingStatus } from "../types/booking";
import type { SendOutcome } from "./lease";
import { renderHtml } from "./render/html";
import { type Letter, subjectOf } from "./render/letter";
import { renderText } from "./render/text";

/** The header that names a message for good: a retry of it carries the same value. */
export const MESSAGE_HEADER = "X-Booking-Message-Id";

/** Ready to send, or why not. */
export type Composed =
  | { ok: true; subject: string; message: EmailMessageBuilder }
  | { ok: false; outcome: Extract<SendOutcome, { kind: "failed" }> };

export const failed = (reason: "erased" | "disabled" | "no_sender" | "gave_up", detail?: string): Composed => ({
  ok: false,
  outcome: { kind: "failed", reason, ...(detail ? { detail } : {}) },
});

/** The customer's manage link of a booking, or null (links off, or the link would not open). */
export async function manageUrlOf(
  env: Env,
  owner: { businessId: string; linkKeyVersion: number },
  booking: { id: string; status: BookingStatus; customerEmail: string; endTime: string },
) {
  const settings = linkSettings(env);
  if (!settings || !linkOpens(booking, Date.now())) return null;
  const key = await linkKey(settings.secret, owner.businessId, owner.linkKeyVersion);
  return settings.base + (await manageToken(key, booking.id));
}

/**
 * A letter written out as the message to send: its subject, text and HTML, from `from` to `to`,
 * named by `messageId` (a retry carries the same), marked as written by a program (RFC 3834:
 * auto-responders do not answer it), with `extra` headers and parts.
 */
export function written(
  letter: Letter,
  envelope: { from: { email: string; name: string }; to: string; replyTo: string | null; messageId: string },
  extra: { headers?: Record<string, string>; attachments?: EmailMessageBuilder["attachments"] } = {},
): Composed {
  const subject = subjectOf(letter);
  return {
    ok: true,
    subject,
    message: {
      from: envelope.from,
      to: envelope.to,
      ...(envelope.replyTo ? { replyTo: envelope.replyTo } : {}),
      subject,
      text: renderText(letter),
      html: renderHtml(letter),
      headers: { [MESSAGE_HEADER]: envelope.messageId, "Auto-Submitted": "auto-generated", ...extra.headers },
      ...(extra.attachments ? { attachments: extra.attachments } : {}),
    },
  };
}
