/** SHA-256 of a UTF-8 string as lowercase hex (Web Crypto, available in Workers and Node). */
export async function sha256Hex(input: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(input));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const keyAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A new API key: `bk_live_` or `bk_test_` and 32 base62 characters (~190 bits). */
export function generateApiKey(mode: "live" | "test" = "live"): string {
  // 248 is the largest multiple of 62 below 256: rejecting bytes above it keeps every character equally likely.
  const chars: string[] = [];
  while (chars.length < 32) {
    for (const byte of crypto.getRandomValues(new Uint8Array(48))) {
      if (byte < 248 && chars.length < 32) chars.push(keyAlphabet[byte % 62] as string);
    }
  }
  return `bk_${mode}_${chars.join("")}`;
}

/** Keys the API accepts at all; anything else is rejected without a database lookup. */
export const apiKeyPattern = /^bk_(live|test)_[0-9A-Za-z]{16,64}$/;

/** Bytes as base64url without padding (RFC 4648 §5): cursors, feed tokens. */
export const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
