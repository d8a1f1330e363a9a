/** What each of the manage link's pages is rendered with: its zone, language and links. */
import { loadBusiness } from "../../business/records";
import { isValidTimeZone } from "../../calendar/rules";
import type { OpenLink } from "../../manage-links/records";
import type { PageKind } from "../headers";
import { pickLocale } from "../i18n";
import { nonceOf, type PageContext } from "../render";
import { type View, viewOf } from "../view";

/** The manage page: never framed, its address a secret. */
export const manageKind: PageKind = { framable: false, capability: true };

/** A notice above the page, in the page's words. */
export type Said = { tone?: "bad" | "ok"; text: (view: View) => string };

/** What the address (or the form) asked to see: zone, language, day or month, and a notice. */
export type Shown = { tz?: string; lang?: string; day?: string; month?: string; notice?: Said };

/** A month named in the address (`YYYY-MM`), or undefined. */
export const monthOf = (value: string | undefined) =>
  value && /^\d{4}-(0[1-9]|1[0-2])$/.test(value) ? value : undefined;

/**
 * What each of the link's pages is rendered with: the business, the zone (the address's, else the
 * service's) and language, and links to the link's page that keep both (and `here` for the
 * language switch).
 */
export async function frameOf(
  c: PageContext,
  link: OpenLink,
  shown: Shown,
  here: Record<string, string | undefined> = {},
) {
  const business = await loadBusiness(c.var.db, link.businessId);
  const tz = shown.tz && isValidTimeZone(shown.tz) ? shown.tz : link.service.timezone;
  const locale = pickLocale(shown.lang, c.req.header("Accept-Language"), business.locale);
  const path = new URL(c.req.url).pathname.replace(/\/(cancel|reschedule)$/, "");
  const href = (params: Record<string, string | undefined>) => {
    const query = new URLSearchParams(
      Object.entries({ tz, lang: locale, ...params }).filter((p): p is [string, string] => p[1] !== undefined),
    );
    return `${path}?${query}`;
  };
  const view = viewOf({
    locale,
    nonce: nonceOf(c),
    embed: false,
    tz,
    tzAuto: shown.tz === undefined,
    title: business.bookingPage.title ?? business.name,
    accentColor: business.bookingPage.accentColor ?? null,
    langHref: (lang) => href({ ...here, lang }),
  });
  return { business, tz, path, href, view };
}
