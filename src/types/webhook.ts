/**
 * The events a business can subscribe a webhook endpoint to: a booking's (its conflicts too), a waitlist offer, a
 * person's own calendar failing to sync (once per outage), and e-mails to customers failing (at
 * most once an hour).
 */
export const webhookEventTypes = [
  "booking.created",
  "booking.cancelled",
  "booking.updated",
  "booking.rescheduled",
  "booking.reminder",
  "booking.conflict",
  "booking.conflict_resolved",
  "waitlist.offered",
  "calendar.sync_failed",
  "email.failed",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];
