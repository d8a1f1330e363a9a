/** What the messages say, in each language the business may choose (its `locale`). */
import type { Locale } from "../../types/business";

export type Words = {
  hello: (name: string) => string;
  helloAnyone: string;
  subject: {
    confirmed: (what: string, when: string) => string;
    requested: (what: string, when: string) => string;
    rescheduled: (what: string, when: string) => string;
    cancelled: (what: string, when: string) => string;
    reminder: (what: string, when: string) => string;
    conflict: (what: string, when: string) => string;
    conflictAlert: (what: string, when: string) => string;
  };
  lead: {
    confirmed: (business: string) => string;
    requested: (business: string) => string;
    confirmedMany: (business: string, count: number) => string;
    rescheduled: (business: string) => string;
    cancelled: (business: string) => string;
    reminder: (business: string) => string;
    conflict: (business: string) => string;
    conflictAlert: (customer: string) => string;
  };
  previously: string;
  reason: string;
  manage: string;
  manageOne: string;
  invite: string;
  cancelInvite: string;
  contact: (address: string) => string;
  reply: string;
  /** The business's notice of a conflict names whom to reach. */
  customer: (name: string, email: string) => string;
  series: (count: number) => string;
};

const en: Words = {
  hello: (name) => `Hello ${name},`,
  helloAnyone: "Hello,",
  subject: {
    confirmed: (what, when) => `Booking confirmed: ${what}, ${when}`,
    requested: (what, when) => `Booking request received: ${what}, ${when}`,
    rescheduled: (what, when) => `Booking moved: ${what}, now ${when}`,
    cancelled: (what, when) => `Booking cancelled: ${what}, ${when}`,
    reminder: (what, when) => `Reminder: ${what}, ${when}`,
    conflict: (what, when) => `Please choose a new time: ${what}, ${when}`,
    conflictAlert: (what, when) => `A booking no longer fits: ${what}, ${when}`,
  },
  lead: {
    confirmed: (b) => `your booking with ${b} is confirmed.`,
    requested: (b) => `${b} has your booking request and will confirm it.`,
    confirmedMany: (b, n) => `your ${n} bookings with ${b} are made.`,
    rescheduled: (b) => `your booking with ${b} has moved to a new time.`,
    cancelled: (b) => `your booking with ${b} is cancelled.`,
    reminder: (b) => `a reminder of your booking with ${b}.`,
    conflict: (b) =>
      `${b} can no longer keep your booking at this time. Please choose another time with the link below; we are sorry for the trouble.`,
    conflictAlert: (c) => `the booking of ${c} below no longer fits the provider's time.`,
  },
  previously: "Previously",
  reason: "Reason",
  manage: "View, move or cancel your booking",
  manageOne: "View, move or cancel",
  invite: "The attached invite (invite.ics) adds it to your calendar.",
  cancelInvite: "The attached file (cancel.ics) removes it from your calendar.",
  contact: (address) => `Questions? Reply to this e-mail or write to ${address}.`,
  reply: "Questions? Reply to this e-mail.",
  customer: (name, email) => `The customer: ${name}, ${email}.`,
  series: (n) => `${n} appointments`,
};

const de: Words = {
  hello: (name) => `Hallo ${name},`,
  helloAnyone: "Hallo,",
  subject: {
    confirmed: (what, when) => `Buchung bestätigt: ${what}, ${when}`,
    requested: (what, when) => `Buchungsanfrage erhalten: ${what}, ${when}`,
    rescheduled: (what, when) => `Termin verschoben: ${what}, jetzt ${when}`,
    cancelled: (what, when) => `Termin abgesagt: ${what}, ${when}`,
    reminder: (what, when) => `Erinnerung: ${what}, ${when}`,
    conflict: (what, when) => `Bitte wählen Sie einen neuen Termin: ${what}, ${when}`,
    conflictAlert: (what, when) => `Ein Termin passt nicht mehr: ${what}, ${when}`,
  },
  lead: {
    confirmed: (b) => `Ihre Buchung bei ${b} ist bestätigt.`,
    requested: (b) => `${b} hat Ihre Buchungsanfrage erhalten und bestätigt sie.`,
    confirmedMany: (b, n) => `Ihre ${n} Buchungen bei ${b} sind eingetragen.`,
    rescheduled: (b) => `Ihr Termin bei ${b} wurde verschoben.`,
    cancelled: (b) => `Ihr Termin bei ${b} ist abgesagt.`,
    reminder: (b) => `eine Erinnerung an Ihren Termin bei ${b}.`,
    conflict: (b) =>
      `${b} kann Ihren Termin zu dieser Zeit leider nicht mehr einhalten. Bitte wählen Sie über den Link unten eine andere Zeit; entschuldigen Sie die Umstände.`,
    conflictAlert: (c) => `der Termin von ${c} unten passt nicht mehr in die Zeit der Person, die ihn übernimmt.`,
  },
  previously: "Bisher",
  reason: "Grund",
  manage: "Buchung ansehen, verschieben oder absagen",
  manageOne: "Ansehen, verschieben oder absagen",
  invite: "Die angehängte Einladung (invite.ics) trägt ihn in Ihren Kalender ein.",
  cancelInvite: "Die angehängte Datei (cancel.ics) entfernt ihn aus Ihrem Kalender.",
  contact: (address) => `Fragen? Antworten Sie auf diese E-Mail oder schreiben Sie an ${address}.`,
  reply: "Fragen? Antworten Sie auf diese E-Mail.",
  customer: (name, email) => `Kunde: ${name}, ${email}.`,
  series: (n) => `${n} Termine`,
};

/** The words of a locale. */
export const wordsOf = (locale: Locale): Words => (locale === "de" ? de : en);
