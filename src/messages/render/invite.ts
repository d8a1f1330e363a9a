/**
 * The invite a message carries (RFC 5546 over RFC 5545, written by src/lib/ical.ts):
 * a confirmation or a move requests the event (`METHOD:REQUEST`), a cancellation cancels it
 * (`METHOD:CANCEL`). The UID is the booking id and SEQUENCE its version, which every change
 * raises, so a calendar app updates the one event it already has.
 */
import { type IcalEvent, type IcalMethod, writeIcal } from "../../lib/ical";
import type { Letter } from "./letter";

/** An attachment as the e-mail binding takes it. */
export type Invite = { filename: string; type: string; content: string };

/** The invite of a letter, or null (a reminder carries none). */
export function renderInvite(letter: Letter): Invite | null {
  if (letter.kind === "reminder" || letter.kind.startsWith("conflict")) return null;
  const method: IcalMethod = letter.kind === "cancelled" ? "CANCEL" : "REQUEST";
  const attendee = { name: letter.customerName ?? "", email: letter.customerEmail };
  const events: IcalEvent[] = letter.items.map((item) => ({
    uid: item.id,
    summary: `${item.serviceName} — ${letter.business}`,
    start: item.startTime,
    end: item.endTime,
    stamp: item.updatedAt,
    modified: item.updatedAt,
    status: method === "CANCEL" ? "CANCELLED" : item.pending ? "TENTATIVE" : "CONFIRMED",
    sequence: item.version,
    organizer: letter.organizer,
    attendee,
    ...(item.manageUrl ? { url: item.manageUrl, description: item.manageUrl } : {}),
  }));
  return {
    filename: method === "CANCEL" ? "cancel.ics" : "invite.ics",
    type: `text/calendar; charset=utf-8; method=${method}`,
    content: writeIcal({ product: "calendar feed", method, name: letter.business, events }),
  };
}
