import type { Context } from "hono";
import { createDb } from "../db/client";
import type { AppEnv } from "../env";
import { BOOKMARK_HEADER, openSession } from "./session";
import { shardDatabase, tenantEnv } from "./shards";

/**
 * Puts the rest of a request on a tenant's shard: `c.env` becomes the tenant env (its `DB` is the
 * shard, its calendar stubs carry the shard) and `c.var.db` the shard's Drizzle handle, so every
 * query the handler makes goes there. With `session` (a keyed request), `c.env.DB` is the
 * request's D1 session instead (src/shards/session.ts): the batched reads go through it, while
 * the Drizzle handle, kept once per isolate, stays on the primary.
 */
export function enterShard(c: Context<AppEnv>, shard: number, session = false): void {
  const tenant = tenantEnv(c.env, shard);
  const binding = shardDatabase(tenant, shard);
  if (session) {
    const opened = openSession(binding, c.req.method, c.req.header(BOOKMARK_HEADER));
    c.set("session", opened);
    // drizzle-orm's D1 driver and `readBatch` use only `prepare` and `batch`, which a session has.
    c.env = { ...tenant, DB: opened as unknown as D1Database };
  } else c.env = tenant;
  c.set("db", createDb(binding));
}
