/**
 * The office's problems in the page's language. The API's checks speak English (their problems
 * are the API's contract); a German page says each again: zod's issues by their code and bounds,
 * the API's own sentences from the catalog below. A sentence the catalog lacks (one naming a
 * value, as a 409's) stays English.
 */
import type { FieldError } from "../../lib/api-error";
import { fieldErrors } from "../../lib/validation";
import type { z } from "../../lib/zod";
import type { Locale } from "../../types/business";

type Issue = {
  code: string;
  message: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  expected?: string;
  format?: string;
};

/** The API's own sentences a setup or booking form can meet, in German. */
const sentences: Record<string, string> = {
  "Use 3–40 of a–z, 0–9 and -, not starting or ending with -.":
    "Verwenden Sie 3–40 Zeichen aus a–z, 0–9 und -, nicht am Anfang oder Ende ein -.",
  "Use HH:MM, 00:00 to 23:59.": "Verwenden Sie HH:MM, 00:00 bis 23:59.",
  "Use HH:MM, 00:01 to 24:00.": "Verwenden Sie HH:MM, 00:01 bis 24:00.",
  "An interval cannot start at 24:00.": "Eine Spanne kann nicht um 24:00 beginnen.",
  "The end must be after the start (intervals do not cross midnight; use 24:00).":
    "Das Ende muss nach dem Beginn liegen (Spannen gehen nicht über Mitternacht; verwenden Sie 24:00).",
  "Intervals of a day must not overlap.": "Die Spannen eines Tages dürfen sich nicht überschneiden.",
  "Use one line: no line breaks, tabs or other control characters.":
    "Eine Zeile: keine Zeilenumbrüche, Tabulatoren oder anderen Steuerzeichen.",
  "Addresses under the reserved domain .invalid are not accepted.":
    "Adressen unter der reservierten Domain .invalid werden nicht angenommen.",
  "Use #rrggbb.": "Verwenden Sie #rrggbb.",
  "Use digits, spaces and ( ) . / - with an optional leading +.":
    "Verwenden Sie Ziffern, Leerzeichen und ( ) . / -, vorn wahlweise ein +.",
  "Use an IANA time zone name such as Europe/Berlin.": "Verwenden Sie den Namen einer IANA-Zeitzone wie Europe/Berlin.",
  "Use YYYY-MM-DD.": "Verwenden Sie JJJJ-MM-TT.",
  "Not a real date.": "Kein gültiges Datum.",
  "Use a public https:// URL; local receivers work on a local development server only.":
    "Verwenden Sie eine öffentliche https://-Adresse; lokale Empfänger gehen nur auf einem lokalen Entwicklungsserver.",
  "Taken by another business.": "Schon von einem anderen Betrieb vergeben.",
  "Taken by another member.": "Schon von einem anderen Mitglied verwendet.",
  "Taken by another customer of this business.": "Schon von einer anderen Kundin oder einem anderen Kunden verwendet.",
  "List each event once.": "Nennen Sie jedes Ereignis nur einmal.",
  "List each scope once.": "Nennen Sie jede Berechtigung nur einmal.",
  "Not one of the service's providers.": "Keine Person dieser Leistung.",
  "Required.": "Bitte ausfüllen.",
};

/** A zod issue in German, by its code and bounds; undefined where the code has no German here. */
function germanIssue(issue: Issue): string | undefined {
  const bound = Number(issue.code === "too_small" ? issue.minimum : issue.maximum);
  const many = issue.origin === "array" || issue.origin === "set";
  switch (issue.code) {
    case "too_small":
      if (issue.origin === "string") return bound <= 1 ? "Bitte ausfüllen." : `Mindestens ${bound} Zeichen.`;
      if (many) return `Wählen Sie mindestens ${bound} aus.`;
      return issue.inclusive === false ? `Mehr als ${bound}.` : `Mindestens ${bound}.`;
    case "too_big":
      if (issue.origin === "string") return `Höchstens ${bound} Zeichen.`;
      if (many) return `Höchstens ${bound} Einträge.`;
      return issue.inclusive === false ? `Weniger als ${bound}.` : `Höchstens ${bound}.`;
    case "invalid_type":
      if (issue.expected === "int") return "Geben Sie eine ganze Zahl ein.";
      if (issue.expected === "number") return "Geben Sie eine Zahl ein.";
      return "Fehlt oder ist ungültig.";
    case "invalid_format":
      if (issue.format === "email") return "Geben Sie eine gültige E-Mail-Adresse ein.";
      if (issue.format === "url") return "Geben Sie eine gültige Adresse (URL) ein.";
      // A pattern's own sentence says more than "wrong format": the catalog has it, or it stays.
      return undefined;
    case "invalid_value":
      return "Wählen Sie einen der angebotenen Werte.";
    default:
      return undefined;
  }
}

/** The API's sentences the catalog says in German (a check keeps each one the API still says). */
export const cataloguedSentences: readonly string[] = Object.keys(sentences);

/** One of the API's sentences in the page's language (as it is where the catalog lacks it). */
export const sentenceIn = (locale: Locale, sentence: string): string =>
  locale === "de" ? (sentences[sentence] ?? sentence) : sentence;

/** A failed parse's problems by path (as `fieldErrors` gives them), each in the page's language. */
export function problemsIn(locale: Locale, error: Pick<z.ZodError, "issues">): FieldError[] {
  if (locale !== "de") return fieldErrors(error);
  const german = (issue: Issue) => sentences[issue.message] ?? germanIssue(issue) ?? issue.message;
  return fieldErrors({ issues: error.issues.map((issue) => ({ ...issue, message: german(issue as Issue) })) });
}
