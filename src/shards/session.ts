/**
 * Reads from D1's read replicas (the Sessions API), with the client's bookmark. A keyed request
 * reads through one session on its tenant's shard: a read starts where the client's
 * `X-D1-Bookmark` says (a replica at least that fresh) or, without one, on any replica; a write
 * starts on the primary. The answer carries a bookmark, so the client's next request reads at
 * least what this one saw or wrote: a read's is its session's; a write's is the later of its
 * session's (its Drizzle handle writes through the session) and those of the D1 writes of the
 * calendars it called, which each calendar makes through a session of its own and hands back
 * (src/db/bookmarks.ts). Writes go to the primary whatever the session.
 */
import { createMiddleware } from "hono/factory";
import { laterBookmark } from "../db/bookmarks";
import type { AppEnv } from "../env";

/** The request and response header that carries a D1 bookmark. */
export const BOOKMARK_HEADER = "X-D1-Bookmark";

/** What a bookmark looks like: hex groups and dashes, as D1 prints them; anything else is not one. */
const bookmarkPattern = /^[0-9a-f]{1,32}(-[0-9a-f]{1,64}){1,7}$/;

/** Whether a request of `method` may write (then its session starts on the primary). */
export const isWrite = (method: string): boolean => method !== "GET" && method !== "HEAD";

/** The D1 session of a keyed request on `binding`: where its reads start (see above). */
export function openSession(binding: D1Database, method: string, sent: string | undefined): D1DatabaseSession {
  if (isWrite(method)) return binding.withSession("first-primary");
  if (sent === undefined) return binding.withSession("first-unconstrained");
  // A value that is not a bookmark is not passed on: the read goes to the primary, the freshest.
  return binding.withSession(bookmarkPattern.test(sent) ? sent : "first-primary");
}

/**
 * Puts the request's bookmark on a successful answer: the later of its session's and the
 * calendars' (see above), each taken after its last write, so no statement runs for it (but
 * for a write that ran none through its session and had no calendar write: see below).
 */
export const bookmarkHeader = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const session = c.var.session;
  if (!session) return;
  // Only a successful answer (and a 304) declares the header: a problem answer says nothing was read.
  if (!c.res.ok && c.res.status !== 304) return;
  let bookmark = laterBookmark(session.getBookmark(), c.var.calendarBookmarks?.latest);
  // A write that ran nothing through its session and had no calendar write to D1 has no bookmark
  // yet: one read on the primary gives it one that covers whatever else it did.
  if (!bookmark && isWrite(c.req.method)) {
    await session.prepare("SELECT 1").first();
    bookmark = session.getBookmark();
  }
  if (bookmark) c.header(BOOKMARK_HEADER, bookmark);
});
