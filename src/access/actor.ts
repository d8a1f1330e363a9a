/**
 * Who made a change, as the audit records it: a member signed in, an API key, a customer through
 * their manage link, or the system itself (waitlist offers, calendar sync, expiry).
 */
import type { Caller } from "../env";

export type ActorType = "member" | "apiKey" | "customer" | "system";

/** The actor of an audit record: its kind and its id (a member's, a key's, a booking's for a link). */
export type Actor = { type: ActorType; id: string };

/** The actor of a request: the signed-in member who made it, else its API key. */
export const actorOf = (caller: Caller): Actor =>
  caller.member ? { type: "member", id: caller.member.id } : { type: "apiKey", id: caller.keyId };

/** The system's own changes (alarms, syncs, queue consumers). */
export const systemActor: Actor = { type: "system", id: "system" };
