/** The events a business can subscribe a webhook endpoint to: a booking's, and a waitlist offer. */
export const webhookEventTypes = [
  "booking.created",
  "booking.cancelled",
  "booking.updated",
  "booking.rescheduled",
  "booking.reminder",
  "waitlist.offered",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];
