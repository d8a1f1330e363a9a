import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { enterShard } from "../shards/request";

/**
 * Puts a public request (no API key: a booking page's slug, a feed's or a manage link's token)
 * on the shard `find` names for its address. When it names none, the request stays on the
 * directory, where no tenant's rows are, and its handler answers the usual 404.
 */
export const onShardOf = (find: (c: Context<AppEnv>) => Promise<number | undefined>) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const shard = await find(c);
    if (shard !== undefined) enterShard(c, shard);
    await next();
  });
