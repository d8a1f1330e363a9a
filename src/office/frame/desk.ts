/**
 * The signed-in office: who is at the desk (the session's member), in which language, on which
 * business's shard. Every page past sign-in goes through `signedIn`; the member becomes the
 * request's caller exactly as a signed-in API request does (src/middleware/session.ts), so the
 * domain functions and the role check see the same caller either way.
 */
import type { Context, Next } from "hono";
import { sessionBusiness } from "../../access/session-business";
import { sessionCookie } from "../../access/session-cookie";
import { memberSessionOf, type SessionMember } from "../../access/sessions";
import type { AppEnv } from "../../env";
import { memberCaller } from "../../middleware/session";
import { fromAcceptLanguage } from "../../pages/i18n";
import { enterShard } from "../../shards/request";
import type { Locale } from "../../types/business";
import { deskDe } from "./de";
import { type DeskWords, deskEn } from "./en";

/** The signed-in member's desk: the member, their business's zone and name, their language. */
export type Desk = {
  member: SessionMember;
  businessName: string;
  /** The business's IANA zone: the office shows every time in it. */
  timezone: string;
  locale: Locale;
  m: DeskWords;
};

export type DeskEnv = AppEnv & { Variables: AppEnv["Variables"] & { desk: Desk } };
export type DeskContext = Context<DeskEnv>;

/** The request as the API's modules take it (the desk is one more variable they do not read). */
export const asApp = (c: DeskContext) => c as unknown as Context<AppEnv>;

/** The office's words in a language. */
export const deskWordsOf = (locale: Locale): DeskWords => (locale === "de" ? deskDe : deskEn);

/** The language of an office page: the browser's `Accept-Language` (en or de), else the business's. */
export const localeOf = (c: Context, fallback: Locale): Locale =>
  fromAcceptLanguage(c.req.header("Accept-Language")) ?? fallback;

/**
 * Lets a signed-in member through (else 303 to the sign-in page): enters their business's shard
 * and sets the caller (their role's scopes, the member as actor) and the desk.
 */
export async function signedIn(c: DeskContext, next: Next) {
  const value = sessionCookie(c);
  const member = value ? await memberSessionOf(c.env, value) : undefined;
  if (!member) return c.redirect("/office/sign-in", 303);
  enterShard(asApp(c), member.shard);
  const business = await sessionBusiness(c.env.DB, member.businessId, c.req.method);
  if (!business) return c.redirect("/office/sign-in", 303);
  c.set("caller", memberCaller(member, business));
  const locale = localeOf(c, business.locale);
  c.set("desk", { member, businessName: business.name, timezone: business.timezone, locale, m: deskWordsOf(locale) });
  await next();
}
