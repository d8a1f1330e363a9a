/**
 * Manage-link tokens: `{bookingId}.{signature}`, the signature an HMAC-SHA256 of the booking id
 * under its business's link key. The link key is derived (HMAC-SHA256 again) from the Worker
 * secret `MANAGE_LINK_SECRET`, the business id and the business's `linkKeyVersion`: D1 holds no
 * key at all, a copy of it forges nothing, and a business rotates its key by moving the version
 * on (every earlier link then fails its signature). 256 bits of secret input per token.
 */
import { base64url } from "../lib/crypto";

const encoder = new TextEncoder();
const hmacParams = { name: "HMAC", hash: "SHA-256" } as const;

/** A manage token as the URL carries it; anything else is refused without a lookup. */
const tokenPattern = /^([A-Za-z0-9_]{1,64})\.([A-Za-z0-9_-]{43})$/;

const MAX_CACHED_KEYS = 1_000;
/** Derived keys by secret, business and version: deriving costs two HMAC operations. */
const cachedKeys = new Map<string, Promise<CryptoKey>>();

const importHmacKey = (raw: BufferSource, usages: ("sign" | "verify")[]) =>
  crypto.subtle.importKey("raw", raw, hmacParams, false, usages);

async function deriveLinkKey(secret: string, businessId: string, version: number): Promise<CryptoKey> {
  const root = await importHmacKey(encoder.encode(secret), ["sign"]);
  const raw = await crypto.subtle.sign("HMAC", root, encoder.encode(`manage-link-key:${businessId}:${version}`));
  return importHmacKey(raw, ["sign", "verify"]);
}

/** The key that signs the business's manage links at this version of its link key. */
export function linkKey(secret: string, businessId: string, version: number): Promise<CryptoKey> {
  const id = `${version}:${businessId}:${secret}`;
  let key = cachedKeys.get(id);
  if (!key) {
    if (cachedKeys.size >= MAX_CACHED_KEYS) cachedKeys.delete(cachedKeys.keys().next().value as string);
    key = deriveLinkKey(secret, businessId, version);
    cachedKeys.set(id, key);
  }
  return key;
}

const signedText = (bookingId: string) => encoder.encode(`manage:${bookingId}`);

/** The token of one booking's manage link. */
export async function manageToken(key: CryptoKey, bookingId: string): Promise<string> {
  const signature = await crypto.subtle.sign("HMAC", key, signedText(bookingId));
  return `${bookingId}.${base64url(new Uint8Array(signature))}`;
}

/** The booking id a token names and its signature's bytes, or undefined for a malformed token. */
export function parseManageToken(token: string): { bookingId: string; signature: Uint8Array } | undefined {
  const match = tokenPattern.exec(token);
  if (!match) return undefined;
  const [, bookingId, encoded] = match as unknown as [string, string, string];
  const binary = atob(encoded.replaceAll("-", "+").replaceAll("_", "/"));
  const signature = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  // 43 characters carry 258 bits: the last two must be zero, so one signature has one spelling.
  if (base64url(signature) !== encoded) return undefined;
  return { bookingId: bookingId, signature };
}

/** Whether `signature` signs the booking id under `key` (compared in constant time by Web Crypto). */
export const verifyManageToken = (key: CryptoKey, bookingId: string, signature: Uint8Array) =>
  crypto.subtle.verify("HMAC", key, signature, signedText(bookingId));
