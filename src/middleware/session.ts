import type { Context, Next } from "hono";
import { roleScopes } from "../access/roles";
import { memberSessionOf, type SessionMember } from "../access/sessions";
import type { AppEnv, Caller } from "../env";
import { ApiError } from "../lib/api-error";
import { enterShard } from "../shards/request";
import { forgetCallersOf, unauthorized } from "./key-check";
import { sameOrigin } from "./security";

const safe = new Set(["GET", "HEAD", "OPTIONS"]);
const reads = new Set(["GET", "HEAD"]);

type Business = { name: string; link_key_version: number };
type Dispatch = (request: Request, env: Env, ctx: Context["executionCtx"]) => Response | Promise<Response>;

/** At most this many sessions' callers are kept per isolate (oldest forgotten first). */
const MAX_REMEMBERED = 1_000;
/** Callers of sessions this isolate has checked, by cookie value (memory only, never stored). */
const remembered = new Map<string, Caller>();
/** The whole app, to answer a read again when the member's access changed while it was read. */
let dispatch: Dispatch | undefined;

/** Lets a read whose member changed role meanwhile be answered again through the whole app (src/app.ts). */
export function answerAgainThrough(app: Dispatch): void {
  dispatch = app;
}

/**
 * Forgets every caller this isolate remembers of a business whose name or manage-link key changed:
 * its keys' (key-check.ts) and its members' sessions'. The next request reads them afresh.
 */
export function forgetEveryCallerOf(businessId: string): void {
  forgetCallersOf(businessId);
  for (const [value, caller] of remembered) if (caller.businessId === businessId) remembered.delete(value);
}

const over = () => unauthorized(false, "The session is over: sign in again at /office/sign-in.");

/** The business row a member's caller carries, read on its shard (through the request's session). */
const businessOf = (c: Context<AppEnv>, businessId: string) =>
  c.env.DB.prepare("SELECT name, link_key_version FROM businesses WHERE id = ?").bind(businessId).first<Business>();

/** Whether the member's access as checked now is what the remembered caller was answered with. */
const sameAccess = (caller: Caller, session: SessionMember) =>
  caller.businessId === session.businessId &&
  caller.shard === session.shard &&
  caller.member?.role === session.role &&
  caller.member?.providerId === session.providerId;

/**
 * A request of a signed-in member (the office's pages call the API with their session cookie,
 * no key): the session's member becomes the caller, with their role's scopes, on their business's
 * shard. A change from another site is a 403 before anything is read.
 *
 * A read by a session this isolate has checked before runs while the session is checked again,
 * as a keyed read runs while its key is (src/middleware/key-check.ts): the answer leaves only once
 * the session was found live — a 401 replaces it otherwise — and with the same role and person;
 * if those changed meanwhile, the read is answered again as the member is now. A change always
 * checks the session first.
 */
export async function withSession(c: Context<AppEnv>, value: string, next: Next) {
  if (!safe.has(c.req.method) && !sameOrigin(c.req.raw)) {
    throw new ApiError("cross_site", "A signed-in change must come from this site's own pages.");
  }
  const env = c.env;
  const known = remembered.get(value);
  if (known && reads.has(c.req.method)) {
    enterShard(c, known.shard, true);
    c.set("caller", known);
    // Settled (never rejected) so a failure waits for the read instead of going unhandled.
    const check = Promise.all([memberSessionOf(env, value), businessOf(c, known.businessId)]).then(
      (found) => ({ found }),
      (error: unknown) => ({ error }),
    );
    await next();
    const result = await check;
    if ("error" in result) throw result.error;
    const [session, business] = result.found;
    if (!session || !business) {
      remembered.delete(value);
      throw over();
    }
    remember(value, memberCaller(session, business));
    if (sameAccess(known, session)) return;
    if (!dispatch) throw over();
    c.res = await dispatch(c.req.raw, env, c.executionCtx);
    return;
  }
  const session = await memberSessionOf(env, value);
  if (!session) throw over();
  enterShard(c, session.shard, true);
  const business = await businessOf(c, session.businessId);
  if (!business) throw over();
  const caller = memberCaller(session, business);
  remember(value, caller);
  c.set("caller", caller);
  await next();
}

function remember(value: string, caller: Caller): void {
  remembered.delete(value);
  if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
  remembered.set(value, caller);
}

/** The caller a signed-in member is, on the API and in the office alike: their role's scopes, themselves as actor. */
export const memberCaller = (session: SessionMember, business: Business): AppEnv["Variables"]["caller"] => ({
  businessId: session.businessId,
  businessName: business.name,
  // Rate limits and what a request places (holds) count per member.
  keyId: session.memberId,
  linkKeyVersion: business.link_key_version,
  shard: session.shard,
  scopes: roleScopes[session.role],
  member: { id: session.memberId, role: session.role, providerId: session.providerId },
});
