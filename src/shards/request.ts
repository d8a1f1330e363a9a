import type { Context } from "hono";
import { createDb } from "../db/client";
import type { AppEnv } from "../env";
import { tenantEnv } from "./shards";

/**
 * Puts the rest of a request on a tenant's shard: `c.env` becomes the tenant env (its `DB` is the
 * shard, its calendar stubs carry the shard) and `c.var.db` the shard's Drizzle handle, so every
 * query the handler makes goes there.
 */
export function enterShard(c: Context<AppEnv>, shard: number): void {
  c.env = tenantEnv(c.env, shard);
  c.set("db", createDb(c.env.DB));
}
