/** What composing a message answers, and the parts both composers share. */

import type { BookingStatus } from "../domain/booking";
import { linkOpens, linkSettings } from "../manage-links/present";
import { linkKey, manageToken } from "../manage-links/tokens";
import type { SendOutcome } from "./claim";

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
