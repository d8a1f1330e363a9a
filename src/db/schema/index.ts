/**
 * D1 tables, the single source of truth for the query store, one file per area.
 * `npm run db:generate` turns changes here into SQL under migrations/.
 *
 * Timestamps are ISO 8601 UTC strings from `Date#toISOString()` (fixed width, so they sort
 * as text). Every tenant-owned table leads its indexes with `business_id`.
 */

export * from "./booking-assignments.ts";
export * from "./bookings.ts";
export * from "./businesses.ts";
export * from "./catalog.ts";
export * from "./counts.ts";
export * from "./customers.ts";
export * from "./feeds.ts";
export * from "./holds.ts";
export * from "./idempotency.ts";
export * from "./messages.ts";
export * from "./resources.ts";
export * from "./series.ts";
export * from "./waitlist.ts";
export * from "./webhooks.ts";
