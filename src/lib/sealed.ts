/**
 * Secrets at rest: AES-256-GCM under a key derived (HKDF-SHA-256) from a Worker secret, with a
 * fresh 96-bit IV per seal and the owner's name as additional data, so a sealed value copied to
 * another row does not open. Sealed text: `v1.<iv>.<ciphertext>` in base64url.
 */
import { base64url } from "./crypto";

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

const fromBase64url = (text: string) =>
  Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (ch) => ch.charCodeAt(0));

/** The AES key of `purpose` under `secret` (derived once per isolate). */
function keyOf(secret: string, purpose: string): Promise<CryptoKey> {
  const id = `${purpose}:${secret}`;
  let key = keys.get(id);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"])
      .then((root) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(32), info: encoder.encode(purpose) },
          root,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        ),
      );
    keys.set(id, key);
  }
  return key;
}

/** Encrypts `plaintext` for `owner` (bound to it as additional data). */
export async function seal(secret: string, purpose: string, owner: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const params = { name: "AES-GCM", iv, additionalData: encoder.encode(owner) };
  const sealed = await crypto.subtle.encrypt(params, await keyOf(secret, purpose), encoder.encode(plaintext));
  return `v1.${base64url(iv)}.${base64url(new Uint8Array(sealed))}`;
}

/** Decrypts what `seal` made for the same owner under the same secret; throws otherwise. */
export async function unseal(secret: string, purpose: string, owner: string, sealed: string): Promise<string> {
  const [version, iv, data] = sealed.split(".");
  if (version !== "v1" || !iv || !data) throw new Error("Not a sealed value.");
  const params = { name: "AES-GCM", iv: fromBase64url(iv), additionalData: encoder.encode(owner) };
  const plain = await crypto.subtle.decrypt(params, await keyOf(secret, purpose), fromBase64url(data));
  return new TextDecoder().decode(plain);
}
