/** The booking events a business can subscribe a webhook endpoint to. */
export const webhookEventTypes = [
  "booking.created",
  "booking.cancelled",
  "booking.updated",
  "booking.rescheduled",
  "booking.reminder",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];
