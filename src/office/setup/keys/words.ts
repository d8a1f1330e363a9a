/** The API keys page's words in English and German. */
import type { Locale } from "../../../types/business";

const en = {
  title: "API keys",
  intro:
    "Keys let your own software call the booking API. Each key may do only what its scopes allow; the API's reference describes each scope.",
  apiLink: "API reference",
  none: "No API keys yet.",
  keys: "Keys",
  name: "Name",
  scopes: "Scopes",
  created: "Created",
  revoked: "revoked",
  live: "live",
  test: "test",
  everyScope: "every scope",
  revoke: "Revoke",
  revokeHint: "A revoked key is refused from its next request on; software using it stops working at once.",
  add: "New key",
  scopesHint: "Tick what the key may do; a key never gets a scope you do not hold.",
  mode: "Kind",
  modes: { live: "Live (bk_live_…)", test: "Test (bk_test_…), the same rights told apart by its prefix" } as Record<
    string,
    string
  >,
  create: "Create key",
  shownOnce: "Your new key",
  shownOnceText:
    "Copy it now: this is the only time it is shown. Only a fingerprint of it is stored; a lost key cannot be shown again — revoke it and create another.",
  key: (name: string) => `The key “${name}”`,
  resent: (name: string) =>
    `This form was sent before: the key “${name}” was made then and shown on that answer only. It is not shown again (only a fingerprint of it is stored). If you did not copy it, revoke it and create another.`,
  formUsed:
    "This form already made a key from other fields: nothing was made now. Send the form below to make a new one.",
  confirmTitle: (name: string) => `Revoke the key “${name}”?`,
  confirmText:
    "Software using it is refused from its next request on. A revoked key never works again: to go on, create another.",
  alreadyRevoked: "This key is already revoked: there is nothing left to do.",
  revokeKey: "Revoke key",
  saved: { revoked: "Key revoked: its next request is refused." },
};

const de: typeof en = {
  title: "API-Schlüssel",
  intro:
    "Mit Schlüsseln ruft Ihre eigene Software die Buchungs-API auf. Jeder Schlüssel darf nur, was seine Berechtigungen erlauben; die Referenz der API beschreibt jede.",
  apiLink: "API-Referenz",
  none: "Noch keine API-Schlüssel.",
  keys: "Schlüssel",
  name: "Name",
  scopes: "Berechtigungen",
  created: "Erstellt",
  revoked: "widerrufen",
  live: "live",
  test: "Test",
  everyScope: "alle Berechtigungen",
  revoke: "Widerrufen",
  revokeHint:
    "Ein widerrufener Schlüssel wird ab seiner nächsten Anfrage abgewiesen; Software, die ihn nutzt, funktioniert sofort nicht mehr.",
  add: "Neuer Schlüssel",
  scopesHint: "Ankreuzen, was der Schlüssel darf; er bekommt nie eine Berechtigung, die Sie nicht haben.",
  mode: "Art",
  modes: { live: "Live (bk_live_…)", test: "Test (bk_test_…), dieselben Rechte, am Anfang unterscheidbar" },
  create: "Schlüssel erstellen",
  shownOnce: "Ihr neuer Schlüssel",
  shownOnceText:
    "Jetzt kopieren: Er wird nur dieses eine Mal gezeigt. Gespeichert wird nur ein Fingerabdruck; ein verlorener Schlüssel lässt sich nicht wieder anzeigen — widerrufen und einen neuen erstellen.",
  key: (name) => `Der Schlüssel „${name}“`,
  resent: (name) =>
    `Dieses Formular wurde schon einmal gesendet: Der Schlüssel „${name}“ wurde damals erstellt und nur in jener Antwort gezeigt. Er wird nicht wieder angezeigt (gespeichert ist nur ein Fingerabdruck). Falls Sie ihn nicht kopiert haben: widerrufen und einen neuen erstellen.`,
  formUsed:
    "Dieses Formular hat schon einen Schlüssel mit anderen Angaben erstellt: Jetzt wurde nichts erstellt. Für einen neuen das Formular unten senden.",
  confirmTitle: (name) => `Den Schlüssel „${name}“ widerrufen?`,
  confirmText:
    "Software, die ihn nutzt, wird ab ihrer nächsten Anfrage abgewiesen. Ein widerrufener Schlüssel funktioniert nie wieder: Um weiterzumachen, einen neuen erstellen.",
  alreadyRevoked: "Dieser Schlüssel ist bereits widerrufen: Es bleibt nichts zu tun.",
  revokeKey: "Schlüssel widerrufen",
  saved: { revoked: "Schlüssel widerrufen: Seine nächste Anfrage wird abgewiesen." },
};

/** The API keys page's words in a language. */
export const keyWordsOf = (locale: Locale): KeyWords => (locale === "de" ? de : en);
export type KeyWords = typeof en;
