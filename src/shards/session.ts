/**
 * Reads from D1's read replicas (the Sessions API), with the client's bookmark. A keyed request
 * reads through one session on its tenant's shard: a read starts where the client's
 * `X-D1-Bookmark` says (a replica at least that fresh) or, without one, on any replica; a write
 * starts on the primary. The answer carries the session's bookmark, so the client's next request
 * reads at least what this one saw or wrote. Writes themselves stay on the primary: the Drizzle
 * handle and the calendar objects use the shard's binding, which the Sessions API leaves there.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

/** The request and response header that carries a D1 bookmark. */
export const BOOKMARK_HEADER = "X-D1-Bookmark";

/** What a bookmark looks like: hex groups and dashes, as D1 prints them; anything else is not one. */
const bookmarkPattern = /^[0-9a-f]{1,32}(-[0-9a-f]{1,64}){1,7}$/;

/** The D1 session of a keyed request on `binding`: where its reads start (see above). */
export function openSession(binding: D1Database, method: string, sent: string | undefined): D1DatabaseSession {
  if (method !== "GET" && method !== "HEAD") return binding.withSession("first-primary");
  if (sent === undefined) return binding.withSession("first-unconstrained");
  // A value that is not a bookmark is not passed on: the read goes to the primary, the freshest.
  return binding.withSession(bookmarkPattern.test(sent) ? sent : "first-primary");
}

/**
 * Puts the session's bookmark on a successful answer. A successful write first reads once on the primary,
 * so the bookmark covers what the request wrote, the calendar's write-behind included (it is
 * written before the calendar answers).
 */
export const bookmarkHeader = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const session = c.var.session;
  if (!session) return;
  // Only a successful answer (and a 304) declares the header: a problem answer says nothing was read.
  if (!c.res.ok && c.res.status !== 304) return;
  const write = c.req.method !== "GET" && c.req.method !== "HEAD";
  if (write) await session.prepare("SELECT 1").first();
  const bookmark = session.getBookmark();
  if (bookmark) c.header(BOOKMARK_HEADER, bookmark);
});
