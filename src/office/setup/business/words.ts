/** The business settings page's words in English and German. */
import type { Locale } from "../../../types/business";

const en = {
  title: "Business settings",
  name: "Name",
  slug: "Booking page address",
  slugHint: (origin: string) => `The page is at ${origin}/book/… with this; empty: no address.`,
  timezone: "Time zone",
  timezoneHint: "As Europe/Berlin.",
  locale: "Language of the booking page and e-mails",
  localeNames: { en: "English", de: "Deutsch" } as Record<string, string>,
  contactEmail: "Contact e-mail",
  bookingPage: "Booking page",
  bookingPageEnabled: "The booking page is on (it needs an address)",
  bookingPageTitle: "Heading (empty: the business's name)",
  accentColor: "Accent colour, as #0b6e4f (empty: the default)",
  emails: "E-mails to customers",
  emailsEnabled: "Send confirmations, change notices and reminders",
  fromName: "Sender name (empty: the business's name)",
  replyTo: "Reply-to address (empty: the contact e-mail)",
  conflicts: "Bookings that stop fitting",
  notifyCustomer: "E-mail the customer to pick another time (the contact e-mail is told either way)",
  save: "Save settings",
  saved: { saved: "Settings saved.", unchanged: "Nothing to change." },
};

const de: typeof en = {
  title: "Geschäftseinstellungen",
  name: "Name",
  slug: "Adresse der Buchungsseite",
  slugHint: (origin) => `Die Seite liegt damit unter ${origin}/book/…; leer: keine Adresse.`,
  timezone: "Zeitzone",
  timezoneHint: "Etwa Europe/Berlin.",
  locale: "Sprache der Buchungsseite und E-Mails",
  localeNames: { en: "English", de: "Deutsch" },
  contactEmail: "Kontakt-E-Mail",
  bookingPage: "Buchungsseite",
  bookingPageEnabled: "Die Buchungsseite ist an (sie braucht eine Adresse)",
  bookingPageTitle: "Überschrift (leer: der Name des Geschäfts)",
  accentColor: "Akzentfarbe, etwa #0b6e4f (leer: die übliche)",
  emails: "E-Mails an Kund:innen",
  emailsEnabled: "Bestätigungen, Änderungen und Erinnerungen senden",
  fromName: "Absendername (leer: der Name des Geschäfts)",
  replyTo: "Antwortadresse (leer: die Kontakt-E-Mail)",
  conflicts: "Buchungen, die nicht mehr passen",
  notifyCustomer: "Kund:innen per E-Mail um eine andere Zeit bitten (die Kontakt-E-Mail erfährt es immer)",
  save: "Einstellungen speichern",
  saved: { saved: "Einstellungen gespeichert.", unchanged: "Nichts zu ändern." },
};

/** The business page's words in a language. */
export const businessWordsOf = (locale: Locale): typeof en => (locale === "de" ? de : en);
