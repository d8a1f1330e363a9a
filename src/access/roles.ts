/**
 * What a signed-in member's role may do (docs/members.md, "Roles"), decided once per operation by
 * the scope check (src/middleware/scope.ts): the role's scopes, the front desk's one refusal
 * (erasure), and the staff's limits — their operations are a short list, and an id there must be
 * their own provider's booking or one of its customers, else a 404 as for an id that does not
 * exist. That check is the one place the staff's view is narrowed.
 */
import { and, eq, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { bookings } from "../db/schema";
import type { CallerMember } from "../env";
import { ApiError } from "../lib/api-error";
import { grants, type KeyScopes, type Scope, scopes } from "../types/scopes";

/** The scopes each role holds. */
export const roleScopes: Record<CallerMember["role"], KeyScopes> = {
  owner: [...scopes],
  frontdesk: ["bookings:read", "bookings:write", "customers:read", "customers:write", "catalog:read"],
  staff: ["bookings:read", "bookings:write", "customers:read"],
};

/** Whose record an id in a staff member's operation must be. */
type Owned = "booking" | "customer" | "self";

/** The operations a staff member may call (method and route path), and what their `{id}` must be. */
const staffOperations: Record<string, Owned> = {
  "GET /bookings/:id": "booking",
  "GET /bookings/:id.ics": "booking",
  "PATCH /bookings/:id": "booking",
  "POST /bookings/:id/cancel": "booking",
  "POST /bookings/:id/reschedule": "booking",
  "GET /customers/:id": "customer",
  "GET /providers/:id/bookings": "self",
  // Their own person: read it, set their hours and days off, connect their own calendars.
  "GET /providers/:id": "self",
  "PATCH /providers/:id": "self",
  "GET /providers/:id/calendars": "self",
  "POST /providers/:id/calendars": "self",
  "GET /providers/:id/calendars/:calendarId": "self",
  "DELETE /providers/:id/calendars/:calendarId": "self",
  "POST /providers/:id/calendars/:calendarId/sync": "self",
  // The feed of their own bookings, for their phone's calendar: make (or replace) it, end it.
  "POST /providers/:id/feed": "self",
  "DELETE /providers/:id/feed": "self",
};

/** What a staff member may change of their own person: their hours and days off, nothing else. */
export const staffProviderFields: ReadonlySet<string> = new Set(["weeklySchedule", "dateOverrides"]);

/**
 * Whether the member's role grants `operation` on its own, past the scopes: a staff member's
 * operations on their own person (whose id `checkRole` then holds to theirs).
 */
export const roleGrants = (member: CallerMember | undefined, operation: string) =>
  member?.role === "staff" && staffOperations[operation] === "self";

/** Whether the caller lacks `scope` for `operation`: neither its scopes nor its role grant it. */
export const lacksScope = (caller: { scopes: KeyScopes; member?: CallerMember }, scope: Scope, operation: string) =>
  !grants(caller.scopes, scope) && !roleGrants(caller.member, operation);

const refused = (detail: string) => new ApiError("insufficient_scope", detail);
const notFound = (noun: string, id: string) => new ApiError("not_found", `No ${noun} ${id}.`);

/** Whether a booking is the provider's: theirs alone, or one of a team's they are on. */
const withProvider = (providerId: string) =>
  or(
    eq(bookings.providerId, providerId),
    sql`EXISTS (SELECT 1 FROM json_each(${bookings.providerIds}) WHERE value = ${providerId})`,
  );

/** Whether the business's booking `id` is the provider's. */
const bookingOf = (businessId: string, providerId: string, id: string) =>
  and(eq(bookings.businessId, businessId), eq(bookings.id, id), withProvider(providerId));

/** Whether the customer has a booking with the provider. */
const customerOf = (businessId: string, providerId: string, id: string) =>
  and(eq(bookings.businessId, businessId), eq(bookings.customerId, id), withProvider(providerId));

/**
 * Refuses what the member's role may not do beyond its scopes: a front-desk member's erasure (403),
 * a staff member's operation outside their list (403), an id that is not theirs (404), or a change
 * of their own person beyond their hours and days off (403). `body` reads the request's JSON body.
 */
export async function checkRole(
  db: Database,
  businessId: string,
  member: CallerMember,
  operation: string,
  id: string | undefined,
  body: () => Promise<unknown>,
): Promise<void> {
  if (member.role === "frontdesk" && operation === "DELETE /customers/:id") {
    throw refused("A front-desk member may not erase customers; an owner may.");
  }
  if (member.role !== "staff") return;
  const owned = staffOperations[operation];
  if (!owned) throw refused("A staff member may do this only for their own bookings and hours.");
  const providerId = member.providerId ?? "";
  const target = id ?? "";
  if (owned === "self") {
    if (target !== providerId) throw notFound("provider", target);
    if (operation === "PATCH /providers/:id") {
      const sent = await body();
      const other = Object.keys(sent && typeof sent === "object" ? sent : {}).find((k) => !staffProviderFields.has(k));
      if (other) throw refused(`A staff member may change only their weeklySchedule and dateOverrides, not ${other}.`);
    }
    return;
  }
  const where =
    owned === "booking" ? bookingOf(businessId, providerId, target) : customerOf(businessId, providerId, target);
  const [found] = await db.select({ id: bookings.id }).from(bookings).where(where).limit(1);
  if (!found) throw notFound(owned, target);
}
