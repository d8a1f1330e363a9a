/** The words of a person's connected calendars and calendar feed, in English and German. */
import type { Locale } from "../../../types/business";

const en = {
  calendars: "Connected calendars",
  calendarsHint:
    "The person's own calendars (CalDAV): their busy times keep bookings out of them. They are read every 5 minutes, and at once with “Sync now”.",
  none: "No calendars connected.",
  sync: { pending: "waiting for the first read", ok: "in sync", failing: "failing" } as Record<string, string>,
  lastSynced: "last read",
  lastError: "last error",
  writes: "bookings are written into it",
  syncNow: "Sync now",
  syncNowOf: (url: string) => `Sync now: ${url}`,
  disconnect: "Disconnect",
  disconnectOf: (url: string) => `Disconnect ${url}`,
  connect: "Connect a calendar",
  url: "Calendar address (the CalDAV calendar's own URL, https://…)",
  username: "User name (when the calendar asks for one)",
  password: "Password (an app password where the calendar's provider offers them)",
  passwordHint: "Stored encrypted and never shown again, here or in the API.",
  writeBookings: "Also write this person's bookings into it",
  connectButton: "Connect",
  limit: "A person can have at most 5 calendars: disconnect one first.",
  disconnectTitle: (url: string) => `Disconnect ${url}?`,
  disconnectText:
    "Its busy times stop counting at once, and it is no longer read or written. Events already written into it stay there.",
  keep: "Keep it",
  feed: "Calendar feed",
  feedHint:
    "A secret address of this person's bookings (iCalendar), for a phone's or a desktop's calendar app to subscribe to.",
  feedNone: "No feed address yet.",
  feedSince: (date: string) => `A feed address was made on ${date}. It was shown once and cannot be shown again.`,
  makeFeed: "Make a feed address",
  replaceFeed: "Make a new feed address",
  replaceHint: "A new address replaces the one made before: the old address stops working at once.",
  endFeed: "End the feed",
  endTitle: "End the calendar feed?",
  endText:
    "Its address stops working at once: calendar apps subscribed to it get nothing more. A new address can be made later.",
  feedShown: "The new feed address",
  feedShownText:
    "Shown this once: copy it now into the calendar app. Only a hash of it is kept, so it cannot be shown again; making another one replaces it.",
  feedAddress: "Feed address",
  feedTwice:
    "A feed address was made since this page was shown (the form sent twice?) and shown once then. Nothing new was made; make one here to replace it.",
  saved: {
    connected: "Calendar connected and read.",
    connectedFailing:
      "Calendar connected, but its first read failed (its error is below); it is read again with backoff.",
    connectedPending: "Calendar connected; its first read is still running.",
    disconnected: "Calendar disconnected.",
    synced: "Calendar read.",
    syncFailed: "The read failed: its error is below.",
    feedEnded: "Feed ended: its address no longer works.",
  },
};

const de: typeof en = {
  calendars: "Verbundene Kalender",
  calendarsHint:
    "Die eigenen Kalender der Person (CalDAV): Ihre belegten Zeiten halten Buchungen fern. Sie werden alle 5 Minuten gelesen, mit „Jetzt abgleichen“ sofort.",
  none: "Keine Kalender verbunden.",
  sync: { pending: "wartet auf das erste Lesen", ok: "synchron", failing: "fehlerhaft" },
  lastSynced: "zuletzt gelesen",
  lastError: "letzter Fehler",
  writes: "Buchungen werden eingetragen",
  syncNow: "Jetzt abgleichen",
  syncNowOf: (url) => `Jetzt abgleichen: ${url}`,
  disconnect: "Trennen",
  disconnectOf: (url) => `${url} trennen`,
  connect: "Kalender verbinden",
  url: "Kalenderadresse (die eigene URL des CalDAV-Kalenders, https://…)",
  username: "Benutzername (wenn der Kalender einen verlangt)",
  password: "Passwort (ein App-Passwort, wo der Kalenderanbieter sie anbietet)",
  passwordHint: "Verschlüsselt gespeichert und nie wieder angezeigt, weder hier noch in der API.",
  writeBookings: "Die Buchungen dieser Person auch dort eintragen",
  connectButton: "Verbinden",
  limit: "Eine Person kann höchstens 5 Kalender haben: Zuerst einen trennen.",
  disconnectTitle: (url) => `${url} trennen?`,
  disconnectText:
    "Seine belegten Zeiten zählen sofort nicht mehr, und er wird weder gelesen noch beschrieben. Bereits eingetragene Termine bleiben dort.",
  keep: "Behalten",
  feed: "Kalender-Feed",
  feedHint:
    "Eine geheime Adresse der Buchungen dieser Person (iCalendar), die die Kalender-App eines Telefons oder Computers abonnieren kann.",
  feedNone: "Noch keine Feed-Adresse.",
  feedSince: (date) =>
    `Am ${date} wurde eine Feed-Adresse erstellt. Sie wurde einmal angezeigt und kann nicht noch einmal angezeigt werden.`,
  makeFeed: "Feed-Adresse erstellen",
  replaceFeed: "Neue Feed-Adresse erstellen",
  replaceHint: "Eine neue Adresse ersetzt die bisherige: Die alte Adresse funktioniert sofort nicht mehr.",
  endFeed: "Feed beenden",
  endTitle: "Den Kalender-Feed beenden?",
  endText:
    "Seine Adresse funktioniert sofort nicht mehr: Kalender-Apps, die ihn abonniert haben, erhalten nichts mehr. Eine neue Adresse lässt sich später erstellen.",
  feedShown: "Die neue Feed-Adresse",
  feedShownText:
    "Nur dieses eine Mal angezeigt: Jetzt in die Kalender-App kopieren. Gespeichert wird nur ein Hash, sie kann also nicht noch einmal angezeigt werden; eine weitere ersetzt sie.",
  feedAddress: "Feed-Adresse",
  feedTwice:
    "Seit diese Seite angezeigt wurde, wurde eine Feed-Adresse erstellt (das Formular zweimal gesendet?) und damals einmal angezeigt. Es wurde nichts Neues erstellt; hier lässt sich eine neue erstellen, die sie ersetzt.",
  saved: {
    connected: "Kalender verbunden und gelesen.",
    connectedFailing:
      "Kalender verbunden, aber das erste Lesen ist fehlgeschlagen (der Fehler steht unten); er wird mit wachsendem Abstand erneut gelesen.",
    connectedPending: "Kalender verbunden; das erste Lesen läuft noch.",
    disconnected: "Kalender getrennt.",
    synced: "Kalender gelesen.",
    syncFailed: "Das Lesen ist fehlgeschlagen: Der Fehler steht unten.",
    feedEnded: "Feed beendet: Seine Adresse funktioniert nicht mehr.",
  },
};

/** The calendars' and feed's words in a language. */
export const calendarWordsOf = (locale: Locale): typeof en => (locale === "de" ? de : en);
