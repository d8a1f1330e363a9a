/**
 * A sign-in link's token: `{id}.{signature}`, the signature an HMAC-SHA256 of the link row's id
 * under a key derived from the Worker secret `MANAGE_LINK_SECRET`. Pure, so the account CLI
 * (scripts/business.ts) makes the first owner's link the same way the Worker does.
 */
import { base64url } from "../lib/crypto.ts";

const encoder = new TextEncoder();
const hmac = { name: "HMAC", hash: "SHA-256" } as const;

/** A token as a link carries it: the row's id, a dot, 43 characters of signature. */
export const signInTokenPattern = /^(sil_[0-9a-f]{32})\.([A-Za-z0-9_-]{43})$/;

/** A new link row's id. */
export const newSignInLinkId = () =>
  `sil_${[...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;

async function linkKey(secret: string): Promise<CryptoKey> {
  const root = await crypto.subtle.importKey("raw", encoder.encode(secret), hmac, false, ["sign"]);
  const raw = await crypto.subtle.sign("HMAC", root, encoder.encode("sign-in-link-key"));
  return crypto.subtle.importKey("raw", raw, hmac, false, ["sign"]);
}

/** The token of the link row `id` under `secret`. */
export async function signInToken(secret: string, id: string): Promise<string> {
  const signature = await crypto.subtle.sign("HMAC", await linkKey(secret), encoder.encode(id));
  return `${id}.${base64url(new Uint8Array(signature))}`;
}
