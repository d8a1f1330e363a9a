/**
 * Where a visitor is in the booking flow, carried in the address alone (no cookie, no session):
 * the service, the person, the month or day looked at, the time zone, the language and whether
 * the page is embedded. Every link and form of a page carries it on.
 */
import { isValidTimeZone } from "../calendar/rules";
import type { Locale } from "../types/business";

export type Flow = {
  slug: string;
  service?: string;
  /** `any`, or the id of one of the service's people. */
  person?: string;
  day?: string;
  month?: string;
  /** The zone times are shown in, when the address names one. */
  tz?: string;
  /** The language, when the address names one. */
  lang?: Locale;
  embed: boolean;
};

/** What is wrong with an address's flow, by parameter (its `fix` key in the messages). */
export type FlowProblem = "day" | "month" | "zone";

const dayPattern = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const monthPattern = /^\d{4}-(0[1-9]|1[0-2])$/;
const idPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** A real calendar date (no 31 April), years 2000–2999. */
export const isDay = (value: string) =>
  dayPattern.test(value) &&
  value >= "2000" &&
  value < "3000" &&
  new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/** The flow an address's query names, and what in it is wrong (those parameters are dropped). */
export function flowOf(slug: string, query: Record<string, string | undefined>) {
  const problems: FlowProblem[] = [];
  const flow: Flow = { slug, embed: query.embed === "1" };
  if (query.service && idPattern.test(query.service)) flow.service = query.service;
  if (query.person && idPattern.test(query.person)) flow.person = query.person;
  if (query.lang === "en" || query.lang === "de") flow.lang = query.lang;
  if (query.day !== undefined) {
    if (isDay(query.day)) flow.day = query.day;
    else problems.push("day");
  }
  if (query.month !== undefined) {
    if (monthPattern.test(query.month) && query.month >= "2000" && query.month < "3000") flow.month = query.month;
    else problems.push("month");
  }
  if (query.tz !== undefined) {
    if (isValidTimeZone(query.tz)) flow.tz = query.tz;
    else problems.push("zone");
  }
  return { flow, problems };
}

/** The flow's parameters in a fixed order, changed as given (`undefined` drops one). */
export function paramsOf(flow: Flow, changes: Partial<Flow> = {}): [string, string][] {
  const next = { ...flow, ...changes };
  const pairs: [string, string | undefined][] = [
    ["service", next.service],
    ["person", next.person],
    ["month", next.month],
    ["day", next.day],
    ["tz", next.tz],
    ["lang", next.lang],
    ["embed", next.embed ? "1" : undefined],
  ];
  return pairs.filter((pair): pair is [string, string] => pair[1] !== undefined);
}

/** The address of the flow's page, changed as given. */
export function hrefOf(flow: Flow, changes: Partial<Flow> = {}, path = ""): string {
  const query = new URLSearchParams(paramsOf(flow, changes)).toString();
  return `/book/${flow.slug}${path}${query ? `?${query}` : ""}`;
}

/** The query of the flow's state that a capability page (details, confirmation) carries on. */
export function viewParams(flow: Flow): string {
  return new URLSearchParams(paramsOf({ slug: flow.slug, tz: flow.tz, lang: flow.lang, embed: flow.embed })).toString();
}
