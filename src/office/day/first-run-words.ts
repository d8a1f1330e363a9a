/** The first-run checklist's words in English and German (first-run.tsx). */
import type { Locale } from "../../types/business";

const en = {
  title: "Get your booking page live",
  intro: "Three steps, then customers can book online.",
  done: "done",
  todo: "not yet",
  service: "Add a service offered on the booking page",
  hours: "Set the hours you take bookings",
  page: "Turn the booking page on and give it an address",
  live: "Your booking page is live:",
  liveNote: "This list goes away once the first booking is made.",
};

const de: typeof en = {
  title: "Ihre Buchungsseite online bringen",
  intro: "Drei Schritte, dann können Kunden online buchen.",
  done: "erledigt",
  todo: "noch offen",
  service: "Eine Leistung anlegen, die auf der Buchungsseite angeboten wird",
  hours: "Die Zeiten festlegen, zu denen Sie Buchungen annehmen",
  page: "Die Buchungsseite einschalten und ihr eine Adresse geben",
  live: "Ihre Buchungsseite ist online:",
  liveNote: "Diese Liste verschwindet, sobald die erste Buchung da ist.",
};

/** The checklist's words in the page's language. */
export const firstRunWordsOf = (locale: Locale): typeof en => (locale === "de" ? de : en);
