/**
 * A booking as the API answers it: with `manageUrl`, the customer's own link to view, move or
 * cancel it without an API key. The URL is the same every time it is shown (the token is a
 * signature, not a stored secret), and null once the link could not be used.
 */

import type { Booking, BookingConflict } from "../types/booking";
import { isErasedEmail } from "../types/erasure";
import { linkKey, manageToken } from "./tokens";

/** A booking with its customer's manage link and its open conflicts. */
export type LinkedBooking = {
  [K in keyof Booking | "manageUrl" | "conflicts"]: K extends keyof Booking
    ? Booking[K]
    : K extends "conflicts"
      ? BookingConflict[]
      : string | null;
};

/** A booking, with its conflicts when they were read (else it has none: one just made, moved or cancelled). */
type Presented = Booking & { conflicts?: BookingConflict[] };

/** How long after its end a booking's link still opens (to view it; moving and cancelling end earlier). */
export const LINK_DAYS_AFTER_END = 7;

/** Whose links to sign: the business and the version of its link key. */
export type LinkOwner = { businessId: string; linkKeyVersion: number };

/** The manage links' settings: both unset means no links (manageUrl null, every link a 404). */
export function linkSettings(env: Env): { secret: string; base: string } | undefined {
  const secret: string | undefined = env.MANAGE_LINK_SECRET;
  const origin: string = env.PUBLIC_URL;
  if (!secret || !origin) return undefined;
  return { secret, base: `${origin.replace(/\/+$/, "")}/api/v1/manage/` };
}

/**
 * Whether a booking's link opens now: not cancelled, its customer not erased, and not more than
 * `LINK_DAYS_AFTER_END` days past its end.
 */
export const linkOpens = (booking: Pick<Booking, "status" | "customerEmail" | "endTime">, now: number) =>
  booking.status !== "CANCELLED" &&
  !isErasedEmail(booking.customerEmail) &&
  now <= Date.parse(booking.endTime) + LINK_DAYS_AFTER_END * 86_400_000;

/** The bookings with their manage links (null where a link would not open, or links are off). */
export async function withManageUrls(env: Env, owner: LinkOwner, items: Presented[]): Promise<LinkedBooking[]> {
  const settings = linkSettings(env);
  if (!settings) return items.map((booking) => ({ ...booking, conflicts: booking.conflicts ?? [], manageUrl: null }));
  const key = await linkKey(settings.secret, owner.businessId, owner.linkKeyVersion);
  const now = Date.now();
  return Promise.all(
    items.map(async (booking) => ({
      ...booking,
      conflicts: booking.conflicts ?? [],
      manageUrl: linkOpens(booking, now) ? settings.base + (await manageToken(key, booking.id)) : null,
    })),
  );
}

/** One booking with its manage link. */
export const withManageUrl = async (env: Env, owner: LinkOwner, booking: Presented): Promise<LinkedBooking> =>
  (await withManageUrls(env, owner, [booking]))[0] as LinkedBooking;

/**
 * A webhook event's payload as it is sent: its booking with the manage link (a reminder carries
 * its booking one level down, in `data.booking`).
 */
export async function payloadWithLink(
  env: Env,
  event: { payload: string; businessId: string; linkKeyVersion: number },
): Promise<string> {
  type Data = Booking & Record<string, unknown>;
  const body = JSON.parse(event.payload) as { type: string; data: Data & { booking?: Data } };
  // Only a booking's events carry a booking (a waitlist offer carries its entry, a conflict its id).
  if (!body.type.startsWith("booking.") || body.type.startsWith("booking.conflict")) return event.payload;
  if (body.data.booking)
    body.data.booking = { ...body.data.booking, ...(await withManageUrl(env, event, body.data.booking)) };
  else body.data = { ...body.data, ...(await withManageUrl(env, event, body.data)) };
  return JSON.stringify(body);
}
