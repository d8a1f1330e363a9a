/** Which actor (src/domain/actor.ts) a request is: the signed-in member who made it, else its API key. */
import type { Actor } from "../domain/actor";
import type { Caller } from "../env";

/** The actor of a request: the signed-in member who made it, else its API key. */
export const actorOf = (caller: Pick<Caller, "keyId" | "member">): Actor =>
  caller.member ? { type: "member", id: caller.member.id } : { type: "apiKey", id: caller.keyId };
