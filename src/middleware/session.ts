import type { Context, Next } from "hono";
import { roleScopes } from "../access/roles";
import { sessionBusiness } from "../access/session-business";
import { memberSessionOf, type SessionMember } from "../access/sessions";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/api-error";
import { enterShard } from "../shards/request";
import { unauthorized } from "./key-check";
import { sameOrigin } from "./security";

const safe = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A request of a signed-in member (the office's pages call the API with their session cookie,
 * no key): the session's member becomes the caller, with their role's scopes, on their business's
 * shard. A change from another site is a 403 before anything is read.
 */
export async function withSession(c: Context<AppEnv>, value: string, next: Next) {
  if (!safe.has(c.req.method) && !sameOrigin(c.req.raw)) {
    throw new ApiError("cross_site", "A signed-in change must come from this site's own pages.");
  }
  const session = await memberSessionOf(c.env, value);
  if (!session) throw unauthorized(false, "The session is over: sign in again at /office/sign-in.");
  enterShard(c, session.shard, true);
  const business = await sessionBusiness(c.env.DB, session.businessId, c.req.method);
  if (!business) throw unauthorized(false, "The session is over: sign in again at /office/sign-in.");
  c.set("caller", memberCaller(session, business));
  await next();
}

/** The caller a signed-in member is, on the API and in the office alike: their role's scopes, themselves as actor. */
export const memberCaller = (
  session: SessionMember,
  business: { name: string; link_key_version: number },
): AppEnv["Variables"]["caller"] => ({
  businessId: session.businessId,
  businessName: business.name,
  // Rate limits and what a request places (holds) count per member.
  keyId: session.memberId,
  linkKeyVersion: business.link_key_version,
  shard: session.shard,
  scopes: roleScopes[session.role],
  member: { id: session.memberId, role: session.role, providerId: session.providerId },
});
