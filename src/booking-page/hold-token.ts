/**
 * A booking page's hold token: an HMAC-SHA256 of the hold id under the business's link key
 * (src/manage-links/tokens.ts derives it from `MANAGE_LINK_SECRET`), so only whoever placed the hold can
 * book it, D1 keeps no token, and rotating the business's link key ends every token too. A hold
 * is consumed once, so its token books at most once.
 */

import { addressNetwork } from "../lib/booking-page-throttle";
import { base64url } from "../lib/crypto";
import { linkKey } from "../manage-links/tokens";
import type { PageBusiness } from "./business";

const encoder = new TextEncoder();

/** A token as clients send it: 43 base64url characters (256 bits). */
const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** The page's signing key (the business's link key); the page is only open where the secret is set. */
const keyOf = (env: Env, page: PageBusiness) => linkKey(env.MANAGE_LINK_SECRET as string, page.id, page.linkKeyVersion);

/** The token that books the hold `holdId` placed on the business's page. */
export async function holdToken(env: Env, page: PageBusiness, holdId: string): Promise<string> {
  const signature = await crypto.subtle.sign("HMAC", await keyOf(env, page), encoder.encode(`hold:${holdId}`));
  return base64url(new Uint8Array(signature));
}

/** Whether `token` is the hold's (compared in constant time by Web Crypto). */
export async function holdTokenMatches(env: Env, page: PageBusiness, holdId: string, token: string) {
  if (!tokenPattern.test(token)) return false;
  const bytes = Uint8Array.from(atob(token.replaceAll("-", "+").replaceAll("_", "/")), (ch) => ch.charCodeAt(0));
  // One spelling per signature (the last character's two spare bits are zero).
  if (base64url(bytes) !== token) return false;
  return crypto.subtle.verify("HMAC", await keyOf(env, page), bytes, encoder.encode(`hold:${holdId}`));
}

/**
 * Who placed a page's hold, as the holds table keeps it: the service and a keyed hash of the
 * client's address (never the address itself; an IPv6 address's /64, which one line has whole),
 * so the live holds of one visitor on one service can be counted in the statement that adds one.
 */
export async function placedBy(env: Env, page: PageBusiness, serviceId: string, address: string): Promise<string> {
  const mac = await crypto.subtle.sign(
    "HMAC",
    await keyOf(env, page),
    encoder.encode(`address:${addressNetwork(address)}`),
  );
  return `page:${serviceId}:${base64url(new Uint8Array(mac).slice(0, 16))}`;
}
