/**
 * The business behind a booking page: found by its slug, open only while its page is enabled and
 * the deployment signs manage links (a booking made on the page is handed its manage link, and a
 * page's hold tokens are signed with a key derived from the same secret).
 */
import { type BusinessRow, businessBySlug } from "../business/records";
import type { Database } from "../db/client";
import { ApiError } from "../lib/api-error";
import { movingProblem } from "../lib/transient";
import { linkSettings } from "../manage-links/present";
import { forgetSlug, shardOfSlug } from "../shards/directory";
import { shardOfEnv } from "../shards/shards";
import type { Locale } from "../types/business";
import { chargeAddress, chargeBusiness } from "./throttle";

/** What a page and its public JSON may know of the business: never its customers or keys. */
export type PageBusiness = {
  id: string;
  slug: string;
  name: string;
  /** The page's heading: its own title, else the business's name. */
  title: string;
  locale: Locale;
  timezone: string;
  contactEmail: string | null;
  accentColor: string | null;
  /** The version of the business's link key (src/manage-links/tokens.ts), for hold tokens and manage links. */
  linkKeyVersion: number;
};

/** The 404 of every page that is not there: unknown slug, disabled page, no links on this deployment. */
export const noPage = () => new ApiError("not_found", "There is no booking page at this address.");

/** Slugs as the business resource takes them; anything else is not looked up. */
const slugPattern = /^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$/;

/** Whether a page could be at `slug` on this deployment at all (else no lookup is made). */
export const mayHavePage = (env: Env, slug: string) => slugPattern.test(slug) && linkSettings(env) !== undefined;

/** The shard of the business whose booking page could be at `slug` (the directory knows every slug). */
export async function shardOfPage(env: Env, slug: string): Promise<number | undefined> {
  return mayHavePage(env, slug) ? ((await shardOfSlug(env, slug)) ?? undefined) : undefined;
}

/** The business whose booking page is at `slug`, or a 404 that says nothing more. */
export async function openPage(env: Env, db: Database, slug: string): Promise<PageBusiness> {
  if (!mayHavePage(env, slug)) throw noPage();
  const row = await businessBySlug(db, slug);
  const here = shardOfEnv(env);
  // A business still arriving here, or one this isolate still looks for where it was before it
  // moved (its forwarding row names its new shard, or keeps no slug): the retry reads the directory.
  const elsewhere = row !== undefined && (row.shard !== here || row.relocationState === "arriving");
  if (elsewhere || (!row && here !== undefined && (await movedAway(env, slug, here)))) {
    forgetSlug(slug);
    throw movingProblem("This booking page is moving to another database.");
  }
  return pageOf(row, slug);
}

/** Whether the directory now puts `slug` on another shard than `here` (forgetting what this isolate knew). */
async function movedAway(env: Env, slug: string, here: number): Promise<boolean> {
  forgetSlug(slug);
  const home = await shardOfSlug(env, slug);
  return home !== null && home !== here;
}

/** The page of the business row found at `slug`: a 404 unless there is one and its page is on. */
export function pageOf(row: BusinessRow | undefined, slug: string): PageBusiness {
  if (!row?.bookingPage.enabled) throw noPage();
  return {
    id: row.id,
    slug,
    name: row.name,
    title: row.bookingPage.title ?? row.name,
    locale: row.locale,
    timezone: row.timezone,
    contactEmail: row.contactEmail,
    accentColor: row.bookingPage.accentColor ?? null,
    linkKeyVersion: row.linkKeyVersion,
  };
}

/**
 * The page a public request names, charged first to its client's address (429 once spent, before
 * any lookup), then to the business once it is found.
 */
export async function pageFor(env: Env, db: Database, slug: string, address: string): Promise<PageBusiness> {
  await chargeAddress(env, address);
  const page = await openPage(env, db, slug);
  await chargeBusiness(env, page.id);
  return page;
}
