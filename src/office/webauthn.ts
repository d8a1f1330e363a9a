/**
 * What the office's passkey endpoints share: who the relying party is (the request's own host
 * and origin), the JSON bodies they read (bounded, shaped), their problem answers, and the shape of
 * a credential the browser sends back.
 */
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/api-error";
import { problemResponse } from "../lib/problem-response";
import { assertWellFormed, fieldErrors } from "../lib/validation";
import { z } from "../lib/zod";

/** A passkey endpoint's body: a credential and its few fields fit well inside this. */
const MAX_BODY_BYTES = 16 * 1024;

/** The site's name the authenticator shows beside the passkey. */
export const RP_NAME = "Office";

/**
 * The relying party of this request: its host name as the RP ID (`localhost` under `npm run dev`,
 * the deployed host in production) and its origin as the one the browser must have signed.
 */
export function relyingParty(c: Context) {
  const url = new URL(c.req.url);
  return { rpID: url.hostname, origin: url.origin };
}

/** The client a sign-in attempt counts against, as the e-mail sign-in counts it. */
export const clientOf = (c: Context) => c.req.header("CF-Connecting-IP") ?? "unknown";

const base64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, "Expected base64url.");
const credentialBase = {
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal("public-key"),
  clientExtensionResults: z.looseObject({}).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

/** A new credential as `PublicKeyCredential#toJSON()` gives it, and the name the member chose. */
export const registrationBody = z.object({
  name: z.string().trim().max(60).optional(),
  credential: z.object({
    ...credentialBase,
    response: z.looseObject({
      clientDataJSON: base64url(4096),
      attestationObject: base64url(8192),
      transports: z.array(z.string().max(32)).max(10).optional(),
    }),
  }),
});

/** A credential's signature of a sign-in challenge, as `PublicKeyCredential#toJSON()` gives it. */
export const authenticationBody = z.object({
  credential: z.object({
    ...credentialBase,
    response: z.looseObject({
      clientDataJSON: base64url(4096),
      authenticatorData: base64url(4096),
      signature: base64url(1024),
      userHandle: base64url(256).optional(),
    }),
  }),
});

/**
 * The request's JSON body parsed by `schema`: 415 for another media type, 413 past 16 KiB, 400
 * for text that is not JSON, 422 naming the fields for the wrong shape. Nothing is read before.
 */
export async function readJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const type = (c.req.header("Content-Type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") throw new ApiError("unsupported_media_type", "Send the body as application/json.");
  const text = await c.req.text();
  if (new TextEncoder().encode(text).byteLength > MAX_BODY_BYTES) {
    throw new ApiError("payload_too_large", "The request body is larger than 16 KiB.");
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError("malformed_json", "The request body is not valid JSON.");
  }
  assertWellFormed(body);
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError("validation_failed", "The request body is invalid.", { errors: fieldErrors(parsed.error) });
  }
  return parsed.data;
}

/** A JSON endpoint: an ApiError it throws is answered as problem+json, whatever the office's pages do. */
export const jsonEndpoint =
  (handler: (c: Context<AppEnv>) => Promise<Response>) =>
  async (c: Context<AppEnv>): Promise<Response> => {
    try {
      return await handler(c);
    } catch (error) {
      if (error instanceof ApiError) return problemResponse(c, error);
      throw error;
    }
  };

/** The 422 of a ceremony that did not verify; the same words whatever failed, so they tell nothing. */
export const notVerified = () =>
  new ApiError("validation_failed", "The passkey could not be verified. Ask for new options and try again.", {
    errors: [{ path: "credential", message: "Not a valid answer to a challenge of this site." }],
  });

/** Base64url text (as challenges and keys are kept) as bytes. */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
