import type { Context } from "hono";
import { CalendarBookmarks } from "../db/bookmarks";
import { createDb, sessionDb } from "../db/client";
import type { AppEnv } from "../env";
import { BOOKMARK_HEADER, isWrite, openSession } from "./session";
import { bookmarkingEnv, businessEnv, shardDatabase } from "./shards";

/**
 * Puts the rest of a request on a tenant's shard: `c.env` becomes the business env (its `DB` is the
 * shard, its calendar stubs carry the shard) and `c.var.db` the shard's Drizzle handle, so every
 * query the handler makes goes there. With `session` (a keyed request), `c.env.DB` is the
 * request's D1 session instead (src/shards/session.ts): the batched reads go through it. A read
 * keeps the Drizzle handle built once per isolate, on the primary; a write's handle goes through
 * the session too, and its calendar calls hand back the bookmarks of the calendars' D1 writes,
 * so the answer's bookmark covers everything the request wrote with no read after it.
 */
export function enterShard(c: Context<AppEnv>, shard: number, session = false): void {
  const tenant = businessEnv(c.env, shard);
  const binding = shardDatabase(tenant, shard);
  if (!session) {
    c.env = tenant;
    c.set("db", createDb(binding));
    return;
  }
  const opened = openSession(binding, c.req.method, c.req.header(BOOKMARK_HEADER));
  c.set("session", opened);
  // drizzle-orm's D1 driver and `readBatch` use only `prepare` and `batch`, which a session has.
  const DB = opened as unknown as D1Database;
  if (isWrite(c.req.method)) {
    const calendars = new CalendarBookmarks();
    c.set("calendarBookmarks", calendars);
    c.env = { ...bookmarkingEnv(tenant, shard, calendars), DB };
    c.set("db", sessionDb(opened, binding));
  } else {
    c.env = { ...tenant, DB };
    c.set("db", createDb(binding));
  }
}
