/**
 * The slot calendar of a service that claims other calendars, as a pure function: each slot
 * recounted over what its people and resources can take then, by the same rules their calendars
 * decide a claim with (provider-rules.ts, resource-rules.ts), so the calendar shows what booking
 * would accept.
 *
 * - One provider per booking: a provider offers a session at a slot when they are active,
 *   working then, their time then is free or taken only by this session, and every resource has
 *   a unit for it; `capacity`, `booked` and `held` count those sessions (so
 *   `remaining = capacity − booked − held`) and `providers` lists the ones with a seat left. A
 *   booking or hold without a provider (made before the service had providers) takes a seat in
 *   every session at its time.
 * - A team (`providerMode` all): the one session is offered when every provider offers it.
 * - Resources: a slot is bookable only when every resource has a unit; `resources` lists those
 *   with a unit for the slot's session.
 * - Limits: a slot the service's limits close (its calendar says so) takes nobody; a person at
 *   their daily limit keeps their seats in the counts but is not among `providers`; a slot says
 *   `limit_reached` as a booking would be refused with it: every active person has a seat then
 *   and is at their limit (for a team: every person works then and one is at their limit).
 */
import { type HeldClaim, type ProviderSnapshot, type ResourceSnapshot, sessionOf } from "../claim-types";
import { overlapSweep } from "./overlap-sweep";
import { checkProviderFree, checkProviderWorking } from "./provider-rules";
import { checkResourceFree } from "./resource-rules";
import { blockedSpan, checkTiming, type ServiceRules, type Span } from "./service-rules";
import type { CalendarSlot, LiveSlot } from "./slots";
import { memoizedWorkingTime } from "./working-time-memo";

/**
 * A person with the live claims on their time around the range, and the busy spans of their own
 * calendars there (a span overlapping a slot's blocked time takes the person out of it).
 */
export type ProviderTime = {
  provider: ProviderSnapshot;
  claims: HeldClaim[];
  busy?: readonly Span[];
  /** Whether the person's day of this start holds as many bookings as they take (their limit). */
  full?: (start: number) => boolean;
};
/** A resource with the live claims on its units around the range. */
export type ResourceTime = { resource: ResourceSnapshot; claims: HeldClaim[] };

/** What a service's slots are counted over. */
export type SlotAssignees = {
  providers?: ProviderTime[];
  /** Every provider together (a team) instead of one per booking. */
  team?: boolean;
  resources?: ResourceTime[];
};

/** A counted slot: with `providers` on a service with providers, `resources` on one with resources. */
export type CountedSlot = CalendarSlot & { providers?: string[]; resources?: string[] };

/** A slot closed by a limit: the person's own, or (from the service's calendar) the service's. */
const limited = { reason: "limit_reached" as const };

/** Counts every slot over the service's people and resources (see the module comment). */
export function countSlots(
  slots: LiveSlot[],
  rules: ServiceRules,
  serviceId: string,
  staffing: SlotAssignees,
  now: number,
): CountedSlot[] {
  // Every slot asks each person and resource about its time: their local dates and working spans
  // are computed once for the whole pass (see working-time-memo.ts).
  const calendar = memoizedWorkingTime();
  // The slots come in order, so each calendar's claims around them take one sweep in all.
  // Sorted by id once, so the people with a seat left come sorted. People with the same hours
  // (a team often shares them) are one `hours` group: whether they work is asked once a slot.
  const hoursGroups = new Map<string, number>();
  const times = (staffing.providers ?? [])
    .map((time) => {
      const { active, timezone, weeklySchedule, dateOverrides } = time.provider;
      const key = JSON.stringify([active, timezone, weeklySchedule, dateOverrides]);
      const hours = hoursGroups.get(key) ?? hoursGroups.size;
      hoursGroups.set(key, hours);
      const busy = overlapSweep((time.busy ?? []).map((b) => ({ blockedStart: b.start, blockedEnd: b.end })));
      return { ...time, around: overlapSweep(time.claims), busyAround: busy, hours };
    })
    .sort((a, b) => (a.provider.id < b.provider.id ? -1 : a.provider.id > b.provider.id ? 1 : 0));
  const units = (staffing.resources ?? []).map((time) => ({ ...time, around: overlapSweep(time.claims) }));
  return slots.map(({ unassigned, ...slot }) => {
    const start = Date.parse(slot.startTime);
    const end = Date.parse(slot.endTime);
    const blocked = blockedSpan(rules, start, end);
    /** The resources with a unit for the session of these people. */
    const unitsFor = (sessionProviders: string[]) =>
      units
        .filter(({ resource, around }) => {
          const session = sessionOf("resource", serviceId, start, sessionProviders);
          return checkResourceFree(resource, { session, start, end }, around(blocked), calendar) === null;
        })
        .map(({ resource }) => resource.id);
    const allUnits = (sessionProviders: string[]) =>
      units.length === 0 || unitsFor(sessionProviders).length === units.length;
    const timely = checkTiming(rules, start, end, now) === null;
    /** The resources with a unit for any of these sessions (each a list of people). */
    const withResources = (counted: CountedSlot, sessions: string[][]): CountedSlot =>
      staffing.resources ? { ...counted, resources: [...new Set(sessions.flatMap(unitsFor))].sort() } : counted;
    if (!staffing.providers) return withResources({ ...slot, bookable: slot.bookable && allUnits([]) }, [[]]);
    const session = { session: sessionOf("provider", serviceId, start, []), capacity: Number.POSITIVE_INFINITY };
    const working: (boolean | undefined)[] = [];
    /** Whether the person offers this slot's session; the claims on their time around it. */
    const offers = ({ provider, hours, busyAround }: (typeof times)[number], claims: HeldClaim[]) => {
      let works = working[hours];
      if (works === undefined) {
        works = checkProviderWorking(provider, start, end, calendar) === null;
        working[hours] = works;
      }
      return works && checkProviderFree(session, claims) === null && busyAround(blocked).length === 0;
    };
    // The service's own limits close the slot whoever is free (rules/limits.ts).
    const open = slot.reason === undefined;
    if (staffing.team) {
      const ids = times.map((p) => p.provider.id);
      // As a team's booking is claimed, person by person in id order: the first refusal stands,
      // and a person at their limit refuses after their hours and time.
      const refusing = times.find((p) => !offers(p, p.around(blocked)) || p.full?.(start));
      const atLimit = open && timely && slot.remaining > 0 && refusing !== undefined && refusing.full?.(start) === true;
      const full = atLimit && offers(refusing, refusing.around(blocked));
      if (!times.every((provider) => offers(provider, provider.around(blocked)))) {
        const none = { ...slot, capacity: 0, booked: 0, held: 0, remaining: 0, bookable: false, providers: [] };
        return withResources(full ? { ...none, ...limited } : none, [ids]);
      }
      const seated = slot.remaining > 0 && allUnits(ids);
      const free = seated && open && !full;
      return withResources(
        { ...slot, bookable: free && timely, providers: free ? ids : [], ...(full ? limited : {}) },
        [ids],
      );
    }
    let capacity = 0;
    let booked = 0;
    let held = 0;
    let atLimit = 0;
    const free: string[] = [];
    let active = 0;
    for (const time of times) {
      const { provider } = time;
      if (provider.active) active++;
      const claims = time.around(blocked);
      if (!offers(time, claims)) continue;
      // Every overlapping claim is this session's (checked above); holds expire, bookings do not.
      let holds = 0;
      for (const claim of claims) if (claim.expiresAt !== null) holds++;
      const sessionHeld = holds + unassigned.held;
      const sessionBooked = claims.length - holds + unassigned.booked;
      const seatLeft = sessionBooked + sessionHeld < rules.capacity && open;
      // A person at their daily limit keeps their seats but takes no more bookings; their
      // calendar refuses at it before a resource is asked.
      const full = seatLeft && time.full?.(start) === true;
      if (full) atLimit++;
      if (!allUnits([provider.id])) continue;
      capacity += rules.capacity;
      booked += sessionBooked;
      held += sessionHeld;
      if (seatLeft && !full) free.push(provider.id);
    }
    const remaining = capacity - booked - held;
    const counted = {
      ...slot,
      capacity,
      booked,
      held,
      remaining,
      bookable: free.length > 0 && timely,
      providers: free,
      // As a booking is refused: limit_reached when everyone it could go to is at their limit.
      ...(free.length === 0 && atLimit > 0 && atLimit === active && timely ? limited : {}),
    };
    return withResources(
      counted,
      free.map((id) => [id]),
    );
  });
}
