/** The rooms pages' words in English and German. */
import type { Locale } from "../../../types/business";

const en = {
  title: "Rooms",
  intro: "Rooms, chairs and machines a service's bookings take; a service names them on its page.",
  none: "No active rooms.",
  inactive: "inactive",
  inactiveTitle: "Inactive rooms",
  add: "New room",
  units: (n: number) => (n === 1 ? "1 unit" : `${n} units`),
  name: "Name",
  quantity: "Identical units (how many bookings can take it at once)",
  timezone: "Time zone of its hours",
  ownHours: "It has its own opening hours (else it is open whenever a service using it is)",
  hours: "Opening hours",
  hoursHint: "Each field one interval, as 09:00–17:00; leave a day's fields empty when it is closed.",
  interval: (day: string, n: number) => `${day}, interval ${n}`,
  inApi: "Its date overrides are set through the API (PATCH /resources/{id}); its reference describes them.",
  apiLink: "API reference",
  create: "Add room",
  save: "Save room",
  deactivate: "Deactivate",
  activate: "Activate",
  activeHint: "An inactive room takes no new bookings; it cannot be deactivated while upcoming bookings hold it.",
  notANumber: "Enter a whole number.",
  saved: {
    created: "Room added.",
    saved: "Room saved.",
    unchanged: "Nothing to change.",
    deactivated: "Room deactivated.",
    activated: "Room activated.",
  },
};

const de: typeof en = {
  title: "Räume",
  intro: "Räume, Stühle und Geräte, die Buchungen einer Leistung belegen; die Leistung nennt sie auf ihrer Seite.",
  none: "Keine aktiven Räume.",
  inactive: "inaktiv",
  inactiveTitle: "Inaktive Räume",
  add: "Neuer Raum",
  units: (n) => (n === 1 ? "1 Einheit" : `${n} Einheiten`),
  name: "Name",
  quantity: "Gleiche Einheiten (wie viele Buchungen ihn zugleich belegen können)",
  timezone: "Zeitzone der Zeiten",
  ownHours: "Er hat eigene Öffnungszeiten (sonst ist er offen, wann immer eine Leistung damit es ist)",
  hours: "Öffnungszeiten",
  hoursHint: "Jedes Feld ein Zeitraum, etwa 09:00–17:00; an geschlossenen Tagen die Felder leer lassen.",
  interval: (day, n) => `${day}, Zeitraum ${n}`,
  inApi: "Abweichende Tage werden über die API eingerichtet (PATCH /resources/{id}); ihre Referenz beschreibt sie.",
  apiLink: "API-Referenz",
  create: "Raum hinzufügen",
  save: "Raum speichern",
  deactivate: "Deaktivieren",
  activate: "Aktivieren",
  activeHint:
    "Ein inaktiver Raum nimmt keine neuen Buchungen an; solange kommende Buchungen ihn belegen, lässt er sich nicht deaktivieren.",
  notANumber: "Eine ganze Zahl angeben.",
  saved: {
    created: "Raum hinzugefügt.",
    saved: "Raum gespeichert.",
    unchanged: "Nichts zu ändern.",
    deactivated: "Raum deaktiviert.",
    activated: "Raum aktiviert.",
  },
};

/** The rooms pages' words in a language. */
export const roomWordsOf = (locale: Locale): typeof en => (locale === "de" ? de : en);
