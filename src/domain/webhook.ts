/** The events a business can subscribe a webhook endpoint to: a booking's, a waitlist offer, and e-mails to customers that failed. */
export const webhookEventTypes = [
  "booking.created",
  "booking.cancelled",
  "booking.updated",
  "booking.rescheduled",
  "booking.reminder",
  "waitlist.offered",
  "email.failed",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];
