/** A business's own settings: its booking page and the e-mails it sends customers. */

/** The languages the booking page and e-mails speak. */
export const locales = ["en", "de"] as const;
export type Locale = (typeof locales)[number];

/** The public booking page at `/book/{slug}`. */
export type BookingPageSettings = {
  enabled: boolean;
  /** Heading of the page; the business's name when absent. */
  title?: string;
  /** `#rrggbb`: buttons and links of the page. */
  accentColor?: string;
};

/** E-mails to customers (confirmations, changes, reminders). */
export type EmailSettings = {
  enabled: boolean;
  /** The sender's display name; the business's name when absent. */
  fromName?: string;
  /** Where customers' replies go; the business's `contactEmail` when absent. */
  replyTo?: string;
};

/** What happens when a booking stops fitting (docs/staff-calendars.md, "Conflicts"). */
export type ConflictSettings = {
  /** The customer gets one e-mail asking them to pick another time, and may move inside the notice window. */
  notifyCustomer: boolean;
};
