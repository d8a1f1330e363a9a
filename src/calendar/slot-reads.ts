/**
 * Reading the live slot calendar of a service that claims other calendars: the service's seats,
 * the claims of each person and resource it needs and the busy spans of each person's own
 * calendars (and, with a daily limit, their claims per day), read in parallel, then counted
 * together (rules/slot-counts.ts) by the same rules their calendars decide a claim with.
 */
import type { HeldClaim, ProviderSnapshot, Range, ResourceSnapshot } from "./claim-types";
import { fullOn } from "./limits/provider-day";
import type { ProviderCalendarTime } from "./provider/provider-calendar";
import { blockedSpan } from "./rules/service-rules";
import { type CountedSlot, countSlots } from "./rules/slot-counts";
import type { LiveSlot } from "./rules/slots";
import { claimedCalendarOf, providerCalendarOf, serviceCalendarOf } from "./stubs";
import type { ServiceSnapshot } from "./types";

/** Who and what a service's slots are counted over: its providers (or the one asked for) and its resources. */
export type SlotProviders = { providers?: ProviderSnapshot[]; resources?: ResourceSnapshot[] };

/** What was read of each person (claims and busy spans) and resource (claims), in the order of `staffing`. */
type Read = { providers?: ProviderCalendarTime[]; resources?: HeldClaim[][] };

/** The service's slots counted over the claims read (as they are, when it needs nobody). */
function counted(service: ServiceSnapshot, slots: LiveSlot[], staffing: SlotProviders, read: Read, now: number) {
  const times = staffing.providers && read.providers;
  const resources = staffing.resources?.length ? read.resources : undefined;
  if (!times && !resources) return slots.map(({ unassigned: _unassigned, ...slot }) => slot);
  return countSlots(
    slots,
    service,
    service.id,
    {
      providers:
        times &&
        staffing.providers?.map((provider, i) => ({
          provider,
          claims: times[i]?.claims ?? [],
          busy: times[i]?.busy,
          // Whether the provider's day of a start holds their daily limit (limits/provider-day.ts).
          full: fullOn(times[i]?.days ?? [], provider.limits?.perDay),
        })),
      team: service.providerMode === "all",
      resources: resources && staffing.resources?.map((resource, i) => ({ resource, claims: resources[i] ?? [] })),
    },
    now,
  );
}

/** Every calendar of `staffing`, each read by its kind's `read` (one call per calendar). */
async function readTime<P, R>(
  env: Env,
  service: ServiceSnapshot,
  staffing: SlotProviders,
  read: {
    provider: (calendar: ReturnType<typeof providerCalendarOf>, provider: ProviderSnapshot) => Promise<P>;
    resource: (calendar: ReturnType<typeof claimedCalendarOf>) => Promise<R>;
  },
): Promise<{ providers?: P[]; resources?: R[] }> {
  const { businessId } = service;
  const [providers, resources] = await Promise.all([
    staffing.providers &&
      Promise.all(staffing.providers.map((p) => read.provider(providerCalendarOf(env, businessId, p.id), p))),
    staffing.resources?.length
      ? Promise.all(
          staffing.resources.map((r) =>
            read.resource(claimedCalendarOf(env, businessId, { calendar: "resource", id: r.id })),
          ),
        )
      : undefined,
  ]);
  return { providers, resources };
}

/**
 * The live slot calendar of `[from, to)`. With `people` (the service's providers, or the one
 * asked for) or `resources`, each slot is counted over what they can take then (rules/slot-counts.ts),
 * read from their calendars in parallel with the service's.
 */
export async function slotCalendar(
  env: Env,
  service: ServiceSnapshot,
  from: number,
  to: number,
  staffing: SlotProviders = {},
): Promise<CountedSlot[]> {
  const around = blockedSpan(service, from, to + service.durationMinutes * 60_000);
  const [slots, read] = await Promise.all([
    serviceCalendarOf(env, service.businessId, service.id).availability(service, from, to),
    readTime(env, service, staffing, {
      provider: (calendar, provider) => calendar.timeBetween(around.start, around.end, provider, { from, to }),
      resource: (calendar) => calendar.claimsBetween(around.start, around.end),
    }),
  ]);
  return counted(service, slots, staffing, read, Date.now());
}

/**
 * The live slot at each of `starts` (a series' occurrences), or undefined where none starts:
 * one call to each calendar carrying every start — 1 + people + resources calls whatever the
 * number of starts, not that many per start.
 */
export async function slotsAt(
  env: Env,
  service: ServiceSnapshot,
  starts: readonly number[],
  staffing: SlotProviders = {},
): Promise<(CountedSlot | undefined)[]> {
  const ranges: Range[] = starts.map((start) => ({ from: start, to: start + 1 }));
  const around = ranges.map(({ from, to }): Range => {
    const span = blockedSpan(service, from, to + service.durationMinutes * 60_000);
    return { from: span.start, to: span.end };
  });
  const [slots, read] = await Promise.all([
    serviceCalendarOf(env, service.businessId, service.id).availabilityEach(service, ranges),
    readTime(env, service, staffing, {
      provider: (calendar, provider) => calendar.timeAround(around, provider, ranges),
      resource: (calendar) => calendar.claimsAround(around),
    }),
  ]);
  const now = Date.now();
  return starts.map((start, i) => {
    const at = {
      providers: read.providers?.map((c) => c[i] ?? { claims: [], busy: [], days: [] }),
      resources: read.resources?.map((c) => c[i] ?? []),
    };
    return counted(service, slots[i] ?? [], staffing, at, now).find((s) => Date.parse(s.startTime) === start);
  });
}
