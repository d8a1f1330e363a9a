/** Which actor (src/types/actor.ts) a request is: the signed-in member who made it, else its API key. */

import type { Caller } from "../env";
import type { Actor, Author } from "../types/actor";

/** The actor of a request: the signed-in member who made it, else its API key. */
export const actorOf = (caller: Pick<Caller, "keyId" | "member">): Actor =>
  caller.member ? { type: "member", id: caller.member.id } : { type: "apiKey", id: caller.keyId };

/** Who makes a request's changes: the caller's business, and its actor as the audit names it. */
export const authorOf = (caller: Pick<Caller, "businessId" | "keyId" | "member">): Author => ({
  businessId: caller.businessId,
  actor: actorOf(caller),
});
