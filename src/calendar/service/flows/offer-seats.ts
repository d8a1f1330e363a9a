/**
 * Offering freed seats to the waitlist (tables/waitlist.ts): for each slot with WAITING entries, while
 * it has a free seat, its first entry is offered a hold of 15 minutes through the same hold flow
 * as `POST /holds`, and becomes OFFERED with a `waitlist.offered` event. One run at a time per
 * calendar (offers go in queue order); each run is started after any change that may free a
 * seat and by the alarm, so an offer that lapses passes to the next entry with no request.
 * A reset between placing an offer's hold and recording it: the next run finds the hold by the
 * id the entry keeps and records the offer then.
 */

import { newId } from "../../../lib/ids";
import type { WaitlistEntry } from "../../../types/waitlist";
import { releaseLiveHold } from "../steps/hold-end";
import type { FlowDeps } from "../tables/tables";
import type { QueuedSlot } from "../tables/waitlist";
import { createHoldFlow } from "./create-hold";

/** How long an offer's hold keeps the seat. */
export const OFFER_TTL_MS = 15 * 60_000;
/** Slots looked at per run (soonest first); the rest wait for the next run. */
const SLOTS_PER_RUN = 20;

/**
 * Runs offers until no slot with WAITING entries has a seat left to offer (or the run's bound).
 * `sendTasks` sends what this calendar owes others: a hold refused after some people's calendars
 * granted their claims owes those claims' release, and until it is sent they still count (a
 * person's day limit), so the next slot's offer would be refused in its name.
 */
export async function offerFreedSeats(
  deps: FlowDeps,
  now: () => number,
  sendTasks: () => Promise<void>,
): Promise<void> {
  const { storage, tables } = deps;
  const context = tables.waitlist.context();
  if (!context || context.active === false) return;
  const performers = new Set(context.providers.map((p) => p.id));
  for (const slot of storage.transactionSync(() => tables.waitlist.waitingSlots(now(), SLOTS_PER_RUN))) {
    // Entries waiting for a person who no longer performs the service wait on: nobody else is offered in their place.
    if (slot.providerId && !performers.has(slot.providerId)) continue;
    // At most one offer per seat the slot can have: the capacity of each person's session.
    const seats = context.service.capacity * Math.max(1, context.providers.length);
    for (let offered = 0; offered < seats; offered++) {
      const entry = storage.transactionSync(() => nextToOffer(deps, slot, now()));
      if (!entry) break;
      const holdId = entry.holdId as string;
      // Like POST /holds: D1 finds the hold (to book it) before the calendar places it.
      const found = await findable(deps, entry, holdId, now()).then(
        () => true,
        () => false,
      );
      if (!found) {
        storage.transactionSync(() => tables.waitlist.mark(entry.id, null, now()));
        break;
      }
      const result = await createHoldFlow(deps, {
        ...context,
        holdId,
        providerId: slot.providerId,
        startTime: entry.startTime,
        endTime: entry.endTime,
        ttlMs: OFFER_TTL_MS,
      });
      const done = storage.transactionSync(() => record(deps, entry.id, holdId, result.ok, now()));
      if (!result.ok) await sendTasks();
      if (!done) {
        await deps.env.DB.prepare("DELETE FROM holds WHERE id = ?")
          .bind(holdId)
          .run()
          .catch(() => undefined);
        break;
      }
    }
  }
}

/**
 * The slot's first WAITING entry, marked with the id of the hold about to be offered — or
 * nothing when none waits, its slot has begun, or no seat looks free. An entry marked by a run
 * that died is settled first: offered if its hold is live, else unmarked.
 */
function nextToOffer({ tables }: FlowDeps, slot: QueuedSlot, now: number): WaitlistEntry | undefined {
  const entry = tables.waitlist.next(slot);
  if (!entry) return undefined;
  const marked = tables.waitlist.markedHold(entry.id);
  if (marked) {
    const hold = tables.holds.find(marked, now);
    if (hold?.status === "HELD" && tables.holds.seat(marked)) {
      offer(tables, entry.id, marked, now);
      return nextToOffer({ tables } as FlowDeps, slot, now);
    }
    tables.waitlist.mark(entry.id, null, now);
  }
  if (slot.start <= now) return undefined;
  return tables.waitlist.mark(entry.id, newId("hold", now), now);
}

/**
 * The offer's hold was placed (or not): the entry is OFFERED, or waits on unmarked. Answers
 * whether to go on (and whether the hold is the entry's: else the caller drops its D1 row).
 */
function record({ tables }: FlowDeps, entryId: string, holdId: string, placed: boolean, now: number): boolean {
  if (placed) return offer(tables, entryId, holdId, now);
  tables.waitlist.mark(entryId, null, now);
  return false;
}

/**
 * Offers the placed hold to the entry, if it still waits: one that was left, or whose slot
 * began, while the hold was being placed has ended, so the hold is released (its seat goes to
 * the next run) and no offer is recorded. Answers whether the entry took it.
 */
function offer(tables: FlowDeps["tables"], entryId: string, holdId: string, now: number): boolean {
  if (tables.waitlist.find(entryId, now)?.status !== "WAITING") {
    releaseLiveHold(tables, holdId, now);
    return false;
  }
  const at = new Date(now).toISOString();
  const offered = tables.waitlist.set(entryId, "OFFERED", at, { holdId });
  if (offered) tables.events.raiseOffered(tables.waitlist.ownerOf(entryId).businessId, offered, at);
  return true;
}

/** The D1 row of an offer's hold, the entry's API key's (placed whatever that key's number of live holds). */
async function findable({ env, tables }: FlowDeps, entry: WaitlistEntry, holdId: string, now: number) {
  const { businessId, apiKeyId } = tables.waitlist.ownerOf(entry.id);
  const expiresAt = new Date(now + OFFER_TTL_MS).toISOString();
  await env.DB.prepare(
    `INSERT INTO holds (id, business_id, service_id, api_key_id, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO NOTHING`,
  )
    .bind(holdId, businessId, entry.serviceId, apiKeyId, expiresAt, new Date(now).toISOString())
    .run();
}
