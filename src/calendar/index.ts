/**
 * The calendar objects' gateways: the only module of `src/calendar/` the Worker's routes, domain
 * modules, operator routes and maintenance import (the pure rules have their own face,
 * rules/index.ts). A domain module asks an object by its stub — `serviceCalendarOf(env,
 * businessId, serviceId).createBooking(command)` — so an operation keeps one name from the domain
 * module to the object's method; what comes back is a typed result (a booking, a hold, slots) or a
 * refusal the caller maps to HTTP (src/refusals.ts). The gateways that ask several objects at once
 * (the slot calendar, reconciliation) are here too.
 */

export type { ProviderSnapshot, ResourceSnapshot } from "./claim-types";
export { sealCredentials } from "./connected/credentials";
export { reconcileClaimed } from "./d1/reconcile-claimed";
export { everyService, reconcile } from "./d1/reconcile-services";
export type { ConnectedCalendar } from "./provider/connections";
export { ProviderCalendar } from "./provider/provider-calendar";
export { ResourceCalendar } from "./resource/resource-calendar";
export type { ImportResult } from "./service/flows/import-bookings";
export { ServiceCalendar } from "./service/object/service-calendar";
export type { CustomerRewrite } from "./service/steps/customer-rewrite";
export { slotCalendar, slotsAt } from "./slot-reads";
export { providerCalendarOf, resourceCalendarOf, serviceCalendarOf } from "./stubs";
export type {
  BookingDraft,
  CalendarRefusal,
  CalendarResult,
  CreateBookingCommand,
  HoldResult,
  ServiceSnapshot,
  SlotBookingCommand,
  StatusChangeCommand,
  VisitResult,
  VisitSegment,
} from "./types";
