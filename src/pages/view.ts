/** What every page of one response is rendered with: its language, zone, colours and nonce. */
import type { Locale } from "../types/business";
import { accentColours } from "./colour";
import { allLocales, type Messages, messagesOf } from "./i18n";
import { type Formats, formatsOf } from "./i18n/format";

export type View = {
  m: Messages;
  locale: Locale;
  f: Formats;
  nonce: string;
  embed: boolean;
  /** The zone times are shown in. */
  tz: string;
  /** The address named no zone: the script may put the visitor's own. */
  tzAuto: boolean;
  brand: { title: string; colours: ReturnType<typeof accentColours> };
  /** The same page in each language. */
  langHref: (locale: Locale) => string;
  locales: Locale[];
};

/** A page's view. */
export function viewOf(options: {
  locale: Locale;
  nonce: string;
  embed: boolean;
  tz: string;
  tzAuto: boolean;
  title: string;
  accentColor: string | null;
  langHref: (locale: Locale) => string;
}): View {
  return {
    m: messagesOf(options.locale),
    locale: options.locale,
    f: formatsOf(options.locale, options.tz),
    nonce: options.nonce,
    embed: options.embed,
    tz: options.tz,
    tzAuto: options.tzAuto,
    brand: { title: options.title, colours: accentColours(options.accentColor) },
    langHref: options.langHref,
    locales: allLocales,
  };
}

/** Up to two initials of a name, for its badge. */
export const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => [...word][0]?.toUpperCase() ?? "")
    .join("");
