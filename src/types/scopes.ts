/**
 * What an API key may do: its scopes. Each operation of the API needs exactly one scope, named in
 * its route's `security` (so the OpenAPI document shows it) and checked once per request by
 * src/middleware/scope.ts from that same declaration. A key made before scopes existed has none
 * stored (`null`) and may do everything, as it always could.
 */

/** Every scope, in the order the docs list them. */
export const scopes = [
  "bookings:read",
  "bookings:write",
  "customers:read",
  "customers:write",
  "catalog:read",
  "catalog:write",
  "business:write",
  "members:write",
  "keys:write",
] as const;

export type Scope = (typeof scopes)[number];

/** What each scope covers, for the OpenAPI document and the docs. */
export const scopeDescriptions: Record<Scope, string> = {
  "bookings:read": "Read bookings, appointments, series, holds, waitlist entries and their messages.",
  "bookings:write": "Create, move, cancel and change bookings, appointments, series, holds and waitlist entries.",
  "customers:read": "Read and search customers.",
  "customers:write": "Create and edit customers, and erase them.",
  "catalog:read": "Read the business, services, providers, resources, their calendars and availability.",
  "catalog:write": "Change services, providers, resources, hours, questions, limits, calendars and feeds.",
  "business:write": "Change the business's settings and its webhooks.",
  "members:write": "Invite, change and remove the business's members.",
  "keys:write": "List, create and revoke API keys.",
};

/** A key's scopes as stored: a list, or null for a key from before scopes (every scope). */
export type KeyScopes = Scope[] | null;

/** Whether a key with these scopes may do what `scope` covers. */
export const grants = (held: KeyScopes, scope: Scope): boolean => held === null || held.includes(scope);

/** The scopes `held` amounts to, listed (every scope for a key from before scopes). */
export const listed = (held: KeyScopes): Scope[] =>
  held === null ? [...scopes] : scopes.filter((s) => held.includes(s));

/** A route's `security`: the bearer key, needing `scope`. */
export const needs = (scope: Scope) => [{ bearerAuth: [scope] }];
