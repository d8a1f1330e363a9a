/**
 * Who made a change, as the audit records it: a member signed in, an API key, a customer through
 * their manage link, or the system itself (waitlist offers, calendar sync, expiry). The calendar,
 * the domain modules and the audit all name actors; which actor a request is, is src/access/actor.ts's.
 */

export type ActorType = "member" | "apiKey" | "customer" | "system";

/** The actor of an audit record: its kind and its id (a member's, a key's, a booking's for a link). */
export type Actor = { type: ActorType; id: string };

/** Who makes a change: the business it is made in, and the actor the audit names. */
export type Author = { businessId: string; actor: Actor };

/** The system's own changes (alarms, syncs, queue consumers). */
export const systemActor: Actor = { type: "system", id: "system" };
