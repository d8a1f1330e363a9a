import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { sessionCookie } from "../access/session-cookie";
import type { AppEnv, KeyCheck } from "../env";
import { ApiError } from "../lib/api-error";
import { apiKeyPattern, sha256Hex } from "../lib/crypto";
import { movingProblem } from "../lib/transient";
import { forgetKeyShard, shardOfKey } from "../shards/directory";
import { enterShard } from "../shards/request";
import { forget, isHome, type KeyRow, keyLookup, remember, rememberedCaller, settle, unauthorized } from "./key-check";
import { withSession } from "./session";
import { isKnownUnknown, recordUnknown } from "./unknown-keys";

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

/**
 * Resolves `Authorization: Bearer <key>` to the calling business via the SHA-256 of the key.
 * Missing, malformed, unknown and revoked keys all answer 401 without saying which. The key's
 * shard comes from the directory, read once per key and isolate (src/shards/directory.ts); the
 * rest of the request runs on that shard. A read from a key this isolate has seen owes its key
 * check to its own D1 batch (see `key-check.ts`); the check is made here, after the handler, if
 * the handler did not make it.
 */
export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  // A tool call of the MCP server: its request's key was checked a moment ago, in this isolate.
  const vouched = c.var.vouched;
  if (vouched) {
    enterShard(c, vouched.shard, true);
    c.set("caller", vouched);
    return next();
  }
  const header = c.req.header("Authorization");
  if (!header) {
    const session = sessionCookie(c);
    if (session) return withSession(c, session, next);
    throw unauthorized(false, "Send an API key as `Authorization: Bearer <API_KEY>`.");
  }
  const match = /^Bearer +(\S+)$/i.exec(header.trim());
  const key = match?.[1];
  if (!key || !apiKeyPattern.test(key)) throw unauthorized(true);

  const keyHash = await sha256Hex(key);
  if (isKnownUnknown(keyHash)) throw unauthorized(true);
  const client = c.req.header("CF-Connecting-IP") ?? "unknown";

  const known = rememberedCaller(keyHash);
  if (known && (c.req.method === "GET" || c.req.method === "HEAD")) {
    const check: KeyCheck = { keyHash, owed: true, shard: known.shard };
    enterShard(c, known.shard, true);
    c.set("caller", known);
    c.set("keyCheck", check);
    await next();
    // A read answers nothing to a revoked key: its answer is replaced by the 401.
    if (check.owed) settle(check, (await keyLookup(c.var.db).execute({ keyHash }))[0]);
    return;
  }
  const found = await lookUp(c, keyHash, known?.shard ?? (await shardOfKey(c.env, keyHash)));
  if (found === undefined) {
    // Only keys that match nothing are throttled per address: a valid key is looked up and let
    // through whatever its address did, so one bad actor behind a shared address locks nobody out.
    const period = Number((c.env.READ_BUDGET ?? "600/60").split("/")[1]) || 60;
    if (!(await recordUnknown(keyHash, client, c.env.READ_LIMITER, period))) {
      throw tooManyUnknownKeys(c.env.READ_BUDGET);
    }
    throw unauthorized(true);
  }
  const row = found;
  if (!row) {
    // Revoked since the directory was read: the next request reads it anew.
    forgetKeyShard(keyHash);
    forget(keyHash);
    throw unauthorized(true);
  }
  // Its business is on its way to another shard: reads are answered from the old one, writes wait.
  if (row.relocationState === "leaving" && c.req.method !== "GET" && c.req.method !== "HEAD") {
    throw movingProblem();
  }
  remember(keyHash, row);
  c.set("caller", row);
  await next();
});

/**
 * The key's row on `shard` (undefined: no shard knows the key; null: not live there). A business
 * that moved left a forwarding row on its old shard: the directory is read again (once) and the
 * request goes on on the new shard. One still arriving there answers a 503.
 */
async function lookUp(
  c: Context<AppEnv>,
  keyHash: string,
  shard: number | undefined,
): Promise<KeyRow | null | undefined> {
  if (shard === undefined) return undefined;
  enterShard(c, shard, true);
  const [row] = await keyLookup(c.var.db).execute({ keyHash });
  if (!row || isHome(row, shard)) return row ?? null;
  forget(keyHash);
  forgetKeyShard(keyHash);
  const home = await shardOfKey(c.env, keyHash);
  if (home === undefined || home === shard) throw movingProblem("The business is moving to another database.");
  enterShard(c, home, true);
  const [moved] = await keyLookup(c.var.db).execute({ keyHash });
  if (moved && !isHome(moved, home)) throw movingProblem("The business is moving to another database.");
  return moved ?? null;
}
