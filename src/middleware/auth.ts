import { and, eq, isNull } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { apiKeys, businesses } from "../db/schema";
import type { AppEnv } from "../env";
import { apiKeyPattern, sha256Hex } from "../lib/crypto";
import { ApiError } from "../lib/errors";

const challenge = 'Bearer realm="api"';

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

  const [row] = await c.var.db
    .select({ keyId: apiKeys.id, businessId: businesses.id, businessName: businesses.name })
    .from(apiKeys)
    .innerJoin(businesses, eq(businesses.id, apiKeys.businessId))
    .where(and(eq(apiKeys.keyHash, await sha256Hex(key)), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (!row) throw unauthorized("The API key is invalid or revoked.", true);

  c.set("caller", row);
  await next();
});
