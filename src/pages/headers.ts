/**
 * The pages' response headers: a strict Content-Security-Policy (scripts and styles from this
 * origin only, plus one `<style>` carrying the business's colours under a per-response nonce;
 * nothing from any other origin), framing open only where a page may be embedded, and for
 * capability pages (the hold's details, the confirmation, the manage page, whose addresses are
 * their secret) no referrer and no indexing.
 */
import type { Context } from "hono";
import { base64url } from "../lib/crypto";

/** How a page may be shown. */
export type PageKind = {
  /** The booking flow: embeddable anywhere (`frame-ancestors *`). The manage page is not. */
  framable: boolean;
  /** The address is a secret: `Referrer-Policy: no-referrer`, never indexed. */
  capability: boolean;
};

/** A fresh nonce for one response's `<style>`. */
export const newNonce = () => base64url(crypto.getRandomValues(new Uint8Array(16)));

/** The policy of one response. */
export const contentSecurityPolicy = (nonce: string, framable: boolean) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${framable ? "*" : "'none'"}`,
  ].join("; ");

/** Sets a page's headers on the response being built. */
export function setPageHeaders(c: Context, nonce: string, kind: PageKind): void {
  c.header("Content-Security-Policy", contentSecurityPolicy(nonce, kind.framable));
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Referrer-Policy", kind.capability ? "no-referrer" : "same-origin");
  c.header("Cross-Origin-Resource-Policy", "same-origin");
  c.header("Strict-Transport-Security", "max-age=15552000; includeSubDomains");
  // Live times and personal details: never kept by any cache.
  c.header("Cache-Control", "no-store");
  if (kind.capability) c.header("X-Robots-Tag", "noindex, nofollow");
  if (!kind.framable) c.header("X-Frame-Options", "DENY");
}
