/**
 * A software authenticator for the workerd tests of passkeys (not a test file): an ES256 key pair
 * from Web Crypto, an attestation "none" object and authenticator data built by hand (with a small
 * CBOR encoder), and signatures in the DER form WebAuthn uses — what a browser's authenticator
 * would hand back, so the server's real verification runs.
 */
import { exports } from "cloudflare:workers";

const enc = new TextEncoder();

/** Bytes as base64url without padding. */
export const b64u = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

/** CBOR (RFC 8949) of the few kinds an attestation uses: integers, byte and text strings, maps. */
type Cbor = number | string | Uint8Array | Array<[Cbor, Cbor]>;
function cbor(value: Cbor): Uint8Array {
  const head = (major: number, n: number) =>
    n < 24
      ? Uint8Array.of((major << 5) | n)
      : n < 256
        ? Uint8Array.of((major << 5) | 24, n)
        : Uint8Array.of((major << 5) | 25, n >> 8, n & 255);
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") return concat(head(3, enc.encode(value).length), enc.encode(value));
  if (value instanceof Uint8Array) return concat(head(2, value.length), value);
  return concat(head(5, value.length), ...value.flatMap(([k, v]) => [cbor(k), cbor(v)]));
}

const sha256 = async (bytes: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
const u32 = (n: number) => Uint8Array.of(n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);

/** A raw (r‖s) ECDSA signature as the DER SEQUENCE of two INTEGERs. */
function der(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    const trimmed = bytes.slice(start);
    const body = (trimmed[0] as number) & 0x80 ? concat(Uint8Array.of(0), trimmed) : trimmed;
    return concat(Uint8Array.of(0x02, body.length), body);
  };
  const body = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)));
  return concat(Uint8Array.of(0x30, body.length), body);
}

/** One passkey on a software authenticator, for `rpId` at `origin`. */
export class SoftPasskey {
  readonly rawId = crypto.getRandomValues(new Uint8Array(16));
  counter = 0;
  private keys?: CryptoKeyPair;
  userHandle = "";

  constructor(
    readonly rpId = "api.test",
    readonly origin = "http://api.test",
  ) {}

  get id() {
    return b64u(this.rawId);
  }

  private async clientData(type: string, challenge: string) {
    return enc.encode(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** The answer to creation options (`navigator.credentials.create` then `toJSON()`). */
  async register(options: { challenge: string; user: { id: string } }) {
    this.keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    this.userHandle = options.user.id;
    const point = new Uint8Array((await crypto.subtle.exportKey("raw", this.keys.publicKey)) as ArrayBuffer);
    const cose = cbor([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, point.slice(1, 33)],
      [-3, point.slice(33, 65)],
    ]);
    const authData = concat(
      await sha256(enc.encode(this.rpId)),
      Uint8Array.of(0x45),
      u32(this.counter),
      new Uint8Array(16),
      Uint8Array.of(0, this.rawId.length),
      this.rawId,
      cose,
    );
    const attestationObject = cbor([
      ["fmt", "none"],
      ["attStmt", []],
      ["authData", authData],
    ]);
    const clientDataJSON = await this.clientData("webauthn.create", options.challenge);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64u(clientDataJSON),
        attestationObject: b64u(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
    };
  }

  /** The answer to request options (`navigator.credentials.get` then `toJSON()`); the counter moves on. */
  async sign(options: { challenge: string }, userHandle = this.userHandle) {
    if (!this.keys) throw new Error("register first");
    this.counter++;
    const authData = concat(await sha256(enc.encode(this.rpId)), Uint8Array.of(0x05), u32(this.counter));
    const clientDataJSON = await this.clientData("webauthn.get", options.challenge);
    const signed = concat(authData, await sha256(clientDataJSON));
    const raw = new Uint8Array(
      await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, this.keys.privateKey, signed),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authData),
        signature: b64u(der(raw)),
        userHandle,
      },
      clientExtensionResults: {},
    };
  }
}

/** A JSON post to the office, as the passkey script sends it from this site's page. */
export function officeJson(
  path: string,
  body: unknown,
  options: { cookie?: string; headers?: Record<string, string> } = {},
) {
  const headers = new Headers({ "Content-Type": "application/json", Origin: "http://api.test", ...options.headers });
  if (options.cookie) headers.set("Cookie", `__Host-session=${options.cookie}`);
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return exports.default.fetch(new Request(`http://api.test${path}`, { method: "POST", headers, body: text }));
}
