/**
 * The pages' languages: `?lang=`, else the best of `Accept-Language`, else the business's locale.
 * Ours, not `hono/language`, whose fallback is one fixed language (docs/businesses.md).
 */
import type { Locale } from "../../types/business";
import { de } from "./de";
import { en, type Messages } from "./en";

export type { Messages };

const catalogs: Record<Locale, Messages> = { en, de };

const isLocale = (value: string | undefined): value is Locale => value === "en" || value === "de";

/** The language an `Accept-Language` header prefers among ours (by q, then order), if any. */
export function fromAcceptLanguage(header: string | undefined): Locale | undefined {
  if (!header) return undefined;
  let best: { locale: Locale; q: number } | undefined;
  for (const part of header.slice(0, 500).split(",")) {
    const [range = "", ...params] = part.trim().split(";");
    const primary = range.trim().toLowerCase().split("-")[0];
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (isLocale(primary) && Number.isFinite(q) && q > 0 && (!best || q > best.q)) best = { locale: primary, q };
  }
  return best?.locale;
}

/** The language of a page: `lang` (if one of ours), else `Accept-Language`, else `fallback`. */
export function pickLocale(lang: string | undefined, acceptLanguage: string | undefined, fallback: Locale): Locale {
  if (isLocale(lang)) return lang;
  return fromAcceptLanguage(acceptLanguage) ?? fallback;
}

/** The words of a language. */
export const messagesOf = (locale: Locale): Messages => catalogs[locale];

/** Both languages, for the switch. */
export const allLocales: Locale[] = ["en", "de"];
