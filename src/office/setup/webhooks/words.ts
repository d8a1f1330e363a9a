/** The webhooks page's words in English and German. */
import type { Locale } from "../../../types/business";

const en = {
  title: "Webhooks",
  intro:
    "A webhook endpoint is an address of your own that receives the business's events as signed JSON posts. The API's reference describes each event and how to check the signature.",
  apiLink: "API reference",
  none: "No webhook endpoints yet.",
  endpoints: "Endpoints",
  events: "Events",
  statuses: { active: "active", disabled: "disabled" } as Record<string, string>,
  created: "Created",
  remove: "Delete",
  removeHint: "A deleted endpoint gets no more deliveries, from now on.",
  add: "New endpoint",
  url: "Address (https://…)",
  urlHint: "A public HTTPS address: a host name, port 443, no IP address, no local or private-network name.",
  description: "Description (optional)",
  eventsHint: "Tick the events to receive.",
  create: "Add endpoint",
  shownOnce: "Its signing secret",
  shownOnceText:
    "Copy it now: this is the only time it is shown. Your receiver checks each delivery's signature with it.",
  secretOf: (url: string) => `The secret of ${url}`,
  saved: { deleted: "Endpoint deleted: it gets no more deliveries." } as Record<string, string>,
};

export type WebhookWords = typeof en;

const de: WebhookWords = {
  title: "Webhooks",
  intro:
    "Ein Webhook-Endpunkt ist eine eigene Adresse, die die Ereignisse des Betriebs als signierte JSON-Anfragen erhält. Die Referenz der API beschreibt jedes Ereignis und die Prüfung der Signatur.",
  apiLink: "API-Referenz",
  none: "Noch keine Webhook-Endpunkte.",
  endpoints: "Endpunkte",
  events: "Ereignisse",
  statuses: { active: "aktiv", disabled: "deaktiviert" },
  created: "Erstellt",
  remove: "Löschen",
  removeHint: "Ein gelöschter Endpunkt erhält ab sofort keine Zustellungen mehr.",
  add: "Neuer Endpunkt",
  url: "Adresse (https://…)",
  urlHint:
    "Eine öffentliche HTTPS-Adresse: ein Hostname, Port 443, keine IP-Adresse, kein lokaler oder privater Netzwerkname.",
  description: "Beschreibung (optional)",
  eventsHint: "Die Ereignisse ankreuzen, die er erhalten soll.",
  create: "Endpunkt hinzufügen",
  shownOnce: "Sein Signaturgeheimnis",
  shownOnceText:
    "Jetzt kopieren: Es wird nur dieses eine Mal gezeigt. Ihr Empfänger prüft damit die Signatur jeder Zustellung.",
  secretOf: (url) => `Das Geheimnis von ${url}`,
  saved: { deleted: "Endpunkt gelöscht: Er erhält keine Zustellungen mehr." },
};

/** The webhooks page's words in a language. */
export const webhookWordsOf = (locale: Locale): WebhookWords => (locale === "de" ? de : en);
