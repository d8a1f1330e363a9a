/**
 * The calendar's public face: the only module the Worker's routes, domain modules, operator
 * routes and maintenance import from `src/calendar/`. Every operation that decides availability
 * goes through a Durable Object here; what comes back is a typed result (a booking, a hold, slots)
 * or a refusal the caller maps to HTTP. Inside, rooms by job: the pure rules, the service
 * calendar object and its steps, the people's calendars, and the write-behind to D1.
 */
import type { Hold } from "../domain/hold";
import type { WaitlistFrom, WaitlistStatus } from "../domain/waitlist";
import type { ProviderSnapshot, ResourceSnapshot } from "./claim-types";
import type { NewCalendar } from "./provider/connections";
import { slotsBetween } from "./rules/service-rules";
import type { CustomerRewrite } from "./service/customer-rewrite";
import type { ImportedBooking, ImportResult } from "./service/import";
import type { ServiceChange } from "./service/service-change";
import { providerCalendarOf, resourceCalendarOf, serviceCalendarOf } from "./stubs";
import type {
  CreateBookingCommand,
  HoldCommand,
  HoldResult,
  JoinWaitlistCommand,
  OfferContext,
  RescheduleCommand,
  ServiceSnapshot,
  TransitionCommand,
  VisitCommand,
} from "./types";

export { sealCredentials } from "./caldav/credentials";
export type { ProviderSnapshot, ResourceSnapshot } from "./claim-types";
export { MAX_CALENDARS, type StaffCalendar, type SyncStatus } from "./provider/connections";
export { ProviderCalendar } from "./provider/provider-calendar";
export { ResourceCalendar, type ResourceProposal } from "./resource/resource-calendar";
export { MAX_OCCURRENCES, MAX_SERIES_DAYS, occurrenceStarts, parseRecurrence } from "./rules/recurrence";
export { findOverlap, isValidTimeZone, minutesOfDay, timeOfDayPattern } from "./rules/schedule";
export { checkTiming } from "./rules/service-rules";
export { type CustomerDetails, type CustomerRewrite, erasedDetails, isErasedEmail } from "./service/customer-rewrite";
export type { ImportedBooking, ImportResult } from "./service/import";
export { ServiceCalendar } from "./service/service-calendar";
export type { ChangeConflict, ProposalResult, ServiceChange } from "./service/service-change";
export { segmentTimes } from "./service/visit-plan";
export { slotCalendar, slotsAt } from "./slot-reads";
export { reconcileClaimed } from "./sync/reconcile-claimed";
export { everyService, reconcile } from "./sync/reconcile-services";
export type {
  CalendarRefusal,
  CalendarResult,
  CalendarSlot,
  CreateBookingCommand,
  HoldCommand,
  HoldResult,
  RescheduleCommand,
  ServiceSnapshot,
  SlotReason,
  TransitionCommand,
  VisitCommand,
  VisitResult,
  VisitSegment,
} from "./types";
export { slotReasons } from "./types";

const serviceCalendar = serviceCalendarOf;

/** Books an appointment (or a hold's seat) in its service's calendar. */
export const book = (env: Env, command: CreateBookingCommand) =>
  serviceCalendar(env, command.service.businessId, command.service.id).createBooking(command);

/** Moves a booking to a new time (and maybe person) in its service's calendar. */
export const reschedule = (env: Env, command: RescheduleCommand) =>
  serviceCalendar(env, command.service.businessId, command.service.id).reschedule(command);

/** A status change (or a notes edit) of a booking of this service. */
export const changeBooking = (env: Env, businessId: string, serviceId: string, command: TransitionCommand) =>
  serviceCalendar(env, businessId, serviceId).transition(command);

/**
 * Books a visit: its first segment's service calendar is the entry that claims every other
 * calendar the visit needs; the visit is booked whole or not at all.
 */
export const bookVisit = (env: Env, command: VisitCommand) => {
  const { service } = command.segments[0] as VisitCommand["segments"][number];
  return serviceCalendar(env, service.businessId, service.id).createVisit(command);
};

/** Queues a customer for a full slot in the service's calendar (a seat free after all is offered at once). */
export const joinWaitlist = (env: Env, command: JoinWaitlistCommand) =>
  serviceCalendar(env, command.service.businessId, command.service.id).joinWaitlist(command);

/** The service's waitlist: one entry, some entries, or one entry taken off (its offered hold released). */
export const waitlistOf = (env: Env, businessId: string, serviceId: string) => {
  const calendar = serviceCalendar(env, businessId, serviceId);
  return {
    entry: (id: string) => calendar.waitlistEntry(id),
    list: (status: WaitlistStatus | undefined, from: WaitlistFrom, limit: number) =>
      calendar.listWaitlist(status, from, limit),
    leave: (id: string) => calendar.leaveWaitlist(id),
    offer: () => calendar.offerWaitlist(),
  };
};

/** Keeps a seat (and a person's time) for a few minutes. */
export const placeHold = (env: Env, command: HoldCommand): Promise<HoldResult> =>
  serviceCalendar(env, command.service.businessId, command.service.id).placeHold(command);

/** A hold as its service's calendar knows it now, or null. */
export const findHold = (env: Env, businessId: string, serviceId: string, holdId: string): Promise<Hold | null> =>
  serviceCalendar(env, businessId, serviceId).getHold(holdId);

/** Frees a live hold's seat (and person) at once; a hold already ended changes nothing. */
export const releaseHold = (env: Env, businessId: string, serviceId: string, holdId: string) =>
  serviceCalendar(env, businessId, serviceId).releaseHold(holdId);

/**
 * The first slot start past `max` slots of the service's working hours in `[from, to)`, or
 * undefined when the range holds at most `max`: a caller refuses an oversized range without
 * asking any calendar.
 */
export function slotBeyond(service: ServiceSnapshot, from: number, to: number, max: number): number | undefined {
  return slotsBetween(service, from, to, max)[max]?.start;
}

/** Proposes a change that leaves fewer seats; the calendar refuses it or holds older commands off. */
export const proposeServiceChange = (env: Env, businessId: string, serviceId: string, change: ServiceChange) =>
  serviceCalendar(env, businessId, serviceId).proposeChange(change);

/**
 * The service's new version is saved: the calendar refuses what was decided against older ones;
 * with `reminders` (they changed), it plans its upcoming bookings' reminders anew; with `offers`
 * (the service and staffing now), its waitlist is offered what the change freed.
 */
export const serviceChanged = (
  env: Env,
  businessId: string,
  serviceId: string,
  version: number,
  changed: { reminders?: number[]; offers?: OfferContext } = {},
) => serviceCalendar(env, businessId, serviceId).serviceChanged(version, changed);

/**
 * A person's own calendars (CalDAV), kept in their calendar object: connect one (settings pushed
 * first; null when they have 5), list, read one, disconnect, and read one now.
 */
export const staffCalendarsOf = (env: Env, businessId: string, providerId: string) => {
  const calendar = providerCalendarOf(env, businessId, providerId);
  return {
    connect: (person: ProviderSnapshot, added: NewCalendar) => calendar.connectCalendar(person, added),
    list: () => calendar.listCalendars(),
    get: (id: string) => calendar.getCalendar(id),
    disconnect: (id: string) => calendar.disconnectCalendar(id),
    sync: (id: string) => calendar.syncCalendar(id),
  };
};

/** Pushes a person's settings to their calendar; answers the version it holds. */
export const configurePerson = (env: Env, person: ProviderSnapshot) =>
  providerCalendarOf(env, person.businessId, person.id).configure(person);

/** Pushes a resource's settings to its calendar; answers the version it holds. */
export const configureResource = (env: Env, resource: ResourceSnapshot) =>
  resourceCalendarOf(env, resource.businessId, resource.id).configure(resource);

/**
 * Proposes a resource's next settings (fewer units, or inactive: proposed as none) to its
 * calendar, which refuses while upcoming claims would not fit, else narrows claims until
 * `configureResource` confirms.
 */
export const proposeResourceChange = (env: Env, next: ResourceSnapshot) =>
  resourceCalendarOf(env, next.businessId, next.id).propose(next);

/** Calendars asked at once by a customer rewrite. */
const PARALLEL_CALENDARS = 8;

/**
 * Rewrites (edit) or erases a customer's details in every calendar of these services: each
 * answers once its rewritten bookings reached D1 or wait in its outbox. Every service of the
 * business must be listed, not only those D1 has bookings for: a booking whose D1 write is still
 * pending is known only to its calendar. Answers the ids of the changed bookings.
 */
export async function rewriteCustomer(
  env: Env,
  businessId: string,
  serviceIds: string[],
  command: CustomerRewrite,
): Promise<string[]> {
  const changed: string[] = [];
  for (let i = 0; i < serviceIds.length; i += PARALLEL_CALENDARS) {
    const answers = await Promise.all(
      serviceIds
        .slice(i, i + PARALLEL_CALENDARS)
        .map((id) => serviceCalendar(env, businessId, id).rewriteCustomer(command)),
    );
    for (const answer of answers) changed.push(...answer.bookingIds);
  }
  return changed;
}

/** Imports existing appointments into a service's calendar under the same rules (people and resources included). */
export const importBookings = (
  env: Env,
  service: ServiceSnapshot,
  bookings: ImportedBooking[],
  staffing: { providers: ProviderSnapshot[]; resources: ResourceSnapshot[] },
): Promise<ImportResult> =>
  serviceCalendar(env, service.businessId, service.id).importBookings(
    service,
    bookings,
    staffing.providers,
    staffing.resources,
  );

/** The nightly prune of one service's calendar; answers how many bookings and waitlist entries went. */
export const pruneCalendar = (env: Env, businessId: string, serviceId: string) =>
  serviceCalendar(env, businessId, serviceId).prune();
