import { and, eq, isNull } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { apiKeys, businesses } from "../db/schema";
import type { AppEnv } from "../env";
import { apiKeyPattern, sha256Hex } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { isKnownUnknown, isThrottled, recordUnknown } from "./unknown-keys";

const challenge = 'Bearer realm="api"';

/** A client that sent too many keys matching nothing: a 429 until its budget period is over. */
function tooManyUnknownKeys(budget: string | undefined): ApiError {
  const [limit, period] = (budget ?? "600/60").split("/");
  return new ApiError("rate_limited", "Too many requests with unknown API keys from this client.", {
    headers: {
      "Retry-After": period ?? "60",
      "RateLimit-Policy": `"unknown-keys";q=${limit};w=${period}`,
      RateLimit: `"unknown-keys";r=0;t=${period}`,
    },
  });
}

function unauthorized(detail: string, keySent: boolean): ApiError {
  return new ApiError("unauthorized", detail, {
    headers: { "WWW-Authenticate": keySent ? `${challenge}, error="invalid_token"` : challenge },
  });
}

/**
 * Resolves `Authorization: Bearer <key>` to the calling business via the SHA-256 of the key.
 * Missing, malformed, unknown and revoked keys all answer 401 without saying which.
 */
export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header("Authorization");
  if (!header) throw unauthorized("Send an API key as `Authorization: Bearer <API_KEY>`.", false);
  const match = /^Bearer +(\S+)$/i.exec(header.trim());
  const key = match?.[1];
  if (!key || !apiKeyPattern.test(key)) throw unauthorized("The API key is invalid or revoked.", true);

  const keyHash = await sha256Hex(key);
  if (isKnownUnknown(keyHash)) throw unauthorized("The API key is invalid or revoked.", true);
  const client = c.req.header("CF-Connecting-IP") ?? "unknown";
  if (isThrottled(client)) throw tooManyUnknownKeys(c.env.READ_BUDGET);
  const [row] = await c.var.db
    .select({ keyId: apiKeys.id, businessId: businesses.id, businessName: businesses.name })
    .from(apiKeys)
    .innerJoin(businesses, eq(businesses.id, apiKeys.businessId))
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (!row) {
    const period = Number((c.env.READ_BUDGET ?? "600/60").split("/")[1]) || 60;
    if (!(await recordUnknown(keyHash, client, c.env.READ_LIMITER, period)))
      throw tooManyUnknownKeys(c.env.READ_BUDGET);
    throw unauthorized("The API key is invalid or revoked.", true);
  }

  c.set("caller", row);
  await next();
});
