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
  resent: (url: string) =>
    `This form was sent before: the endpoint ${url} was added then, and its signing secret shown on that answer only. It is not shown again. If you did not copy it, delete the endpoint and add it again.`,
  formUsed:
    "This form already added an endpoint from other fields: nothing was added now. Send the form below to add a new one.",
  confirmTitle: (url: string) => `Delete the endpoint ${url}?`,
  confirmText:
    "It gets no more deliveries, from now on. A deleted endpoint cannot be brought back: to receive events there again, add it anew (with a new signing secret).",
  removeEndpoint: "Delete endpoint",
  saved: { deleted: "Endpoint deleted: it gets no more deliveries." },
};

const de: typeof en = {
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
  resent: (url) =>
    `Dieses Formular wurde schon einmal gesendet: Der Endpunkt ${url} wurde damals hinzugefügt und sein Signaturgeheimnis nur in jener Antwort gezeigt. Es wird nicht wieder angezeigt. Falls Sie es nicht kopiert haben: den Endpunkt löschen und neu hinzufügen.`,
  formUsed:
    "Dieses Formular hat schon einen Endpunkt mit anderen Angaben hinzugefügt: Jetzt wurde nichts hinzugefügt. Für einen neuen das Formular unten senden.",
  confirmTitle: (url) => `Den Endpunkt ${url} löschen?`,
  confirmText:
    "Er erhält ab sofort keine Zustellungen mehr. Ein gelöschter Endpunkt lässt sich nicht zurückholen: Um dort wieder Ereignisse zu erhalten, neu hinzufügen (mit einem neuen Signaturgeheimnis).",
  removeEndpoint: "Endpunkt löschen",
  saved: { deleted: "Endpunkt gelöscht: Er erhält keine Zustellungen mehr." },
};

/** The webhooks page's words in a language. */
export const webhookWordsOf = (locale: Locale): WebhookWords => (locale === "de" ? de : en);
export type WebhookWords = typeof en;
