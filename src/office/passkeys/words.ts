/** The passkeys page's words in English and German, the passkey script's among them (it reads them from the page). */
import type { Locale } from "../../types/business";

const en = {
  title: "Passkeys",
  intro:
    "A passkey signs you in with this device's screen lock, a phone or a security key, instead of an e-mail link. Nothing secret is stored.",
  none: "You have no passkeys yet.",
  yours: "Your passkeys",
  name: "Name",
  added: "Added",
  lastUsed: "Last used",
  never: "never",
  remove: "Remove",
  removeOne: (name: string) => `Remove ${name}`,
  add: "New passkey",
  newName: "Name of the new passkey (optional)",
  addButton: "Add a passkey",
  needsScript: "Adding a passkey needs JavaScript.",
  script: {
    busy: "Follow your browser's steps to create the passkey…",
    done: "Passkey added.",
    closed: "No passkey was used: the browser's dialog was closed or timed out.",
    failed: "That did not work.",
  },
  removed: "Passkey removed.",
  noSuch: "No such passkey",
  noSuchText: "You have no passkey by that name.",
};

const de: typeof en = {
  title: "Passkeys",
  intro:
    "Ein Passkey meldet Sie mit der Bildschirmsperre dieses Geräts, einem Telefon oder einem Sicherheitsschlüssel an, statt mit einem E-Mail-Link. Nichts Geheimes wird gespeichert.",
  none: "Sie haben noch keine Passkeys.",
  yours: "Ihre Passkeys",
  name: "Name",
  added: "Hinzugefügt",
  lastUsed: "Zuletzt verwendet",
  never: "nie",
  remove: "Entfernen",
  removeOne: (name) => `${name} entfernen`,
  add: "Neuer Passkey",
  newName: "Name des neuen Passkeys (optional)",
  addButton: "Passkey hinzufügen",
  needsScript: "Zum Hinzufügen eines Passkeys wird JavaScript benötigt.",
  script: {
    busy: "Folgen Sie den Schritten Ihres Browsers, um den Passkey zu erstellen …",
    done: "Passkey hinzugefügt.",
    closed: "Es wurde kein Passkey verwendet: Der Dialog des Browsers wurde geschlossen oder ist abgelaufen.",
    failed: "Das hat nicht geklappt.",
  },
  removed: "Passkey entfernt.",
  noSuch: "Kein solcher Passkey",
  noSuchText: "Sie haben keinen Passkey mit dieser Kennung.",
};

/** The passkeys page's words in a language. */
export const passkeyWordsOf = (locale: Locale): typeof en => (locale === "de" ? de : en);
