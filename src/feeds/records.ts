/**
 * A person's calendar feed: issuing (and so rotating) and revoking its secret URL (each recorded
 * in the audit), finding the feed a URL names, and the bookings it shows. The token is 256 random bits; only its SHA-256
 * is stored, as API keys are, so a copy of the database cannot rebuild a feed URL.
 */
import { and, asc, eq, gte, lt, ne } from "drizzle-orm";
import { recordIfChanged } from "../audit/record";
import type { Database } from "../db/client";
import { bookingProviders, bookings, calendarFeeds, providers, services } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { base64url, sha256Hex } from "../lib/crypto";
import { loadProvider } from "../providers/records";
import { probeShards } from "../shards/probe";
import type { Actor } from "../types/actor";
import { feedTokenPattern } from "../types/feed";

/** What a feed shows: bookings from 30 days ago to a year ahead, at most this many. */
export const FEED_DAYS_BEFORE = 30;
export const FEED_DAYS_AHEAD = 366;
export const MAX_FEED_EVENTS = 2_000;

const DAY_MS = 86_400_000;

/** The shard of the feed a token opens (the address is all a feed reader sends), or undefined. */
export async function shardOfFeed(env: Env, token: string): Promise<number | undefined> {
  if (!feedTokenPattern.test(token)) return undefined;
  return probeShards(env, "calendar_feeds", "token_hash", await sha256Hex(token));
}

const newFeedToken = () => `cal_${base64url(crypto.getRandomValues(new Uint8Array(32)))}`;

/** A feed token's address (`GET /api/v1/feeds/{token}.ics`) on the origin of the request that made it. */
export const feedAddress = (token: string, requestUrl: string) =>
  new URL(`/api/v1/feeds/${token}.ics`, requestUrl).href;

/** The audit's record of a feed issued or ended: a change of the person (`provider.feed_issued`, `provider.feed_ended`). */
const feedRecord = (businessId: string, providerId: string, actor: Actor, verb: "issued" | "ended") => ({
  businessId,
  actor,
  action: `provider.feed_${verb}`,
  resource: { type: "provider", id: providerId },
  fields: ["feed"],
});

/** When the provider's current feed was issued, or undefined when they have none. */
export async function feedIssuedAt(db: Database, businessId: string, providerId: string) {
  const [row] = await db
    .select({ createdAt: calendarFeeds.createdAt })
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.businessId, businessId), eq(calendarFeeds.providerId, providerId)))
    .limit(1);
  return row?.createdAt;
}

/**
 * Gives the business's provider a new feed token, replacing any earlier one (whose URL stops
 * working with this write), and records it in the audit in the same batch; a 404 for another
 * business's provider. Answers the token. With `replacing` (the issue time of the feed the caller
 * saw, null for none), only that feed is replaced: when another was issued since — the same form
 * sent twice — nothing is written and the answer is undefined.
 */
export async function issueFeed(db: Database, businessId: string, providerId: string, actor: Actor): Promise<string>;
export async function issueFeed(
  db: Database,
  businessId: string,
  providerId: string,
  actor: Actor,
  options: { replacing?: string | null },
): Promise<string | undefined>;
export async function issueFeed(
  db: Database,
  businessId: string,
  providerId: string,
  actor: Actor,
  options: { replacing?: string | null } = {},
): Promise<string | undefined> {
  await loadProvider(db, businessId, providerId);
  const token = newFeedToken();
  const createdAt = new Date().toISOString();
  const row = { providerId, businessId, tokenHash: await sha256Hex(token), createdAt };
  const insert = db.insert(calendarFeeds).values(row);
  const write =
    options.replacing === null
      ? insert.onConflictDoNothing()
      : insert.onConflictDoUpdate({
          target: calendarFeeds.providerId,
          set: { tokenHash: row.tokenHash, createdAt: row.createdAt },
          ...(options.replacing === undefined ? {} : { setWhere: eq(calendarFeeds.createdAt, options.replacing) }),
        });
  const [written] = await db.batch([write, recordIfChanged(db, feedRecord(businessId, providerId, actor, "issued"))]);
  return written.meta.changes > 0 ? token : undefined;
}

/** Ends the provider's feed, if it has one (recorded in the audit then): its URL answers 404 from now on. */
export async function revokeFeed(db: Database, businessId: string, providerId: string, actor: Actor) {
  await loadProvider(db, businessId, providerId);
  await db.batch([
    db
      .delete(calendarFeeds)
      .where(and(eq(calendarFeeds.businessId, businessId), eq(calendarFeeds.providerId, providerId))),
    recordIfChanged(db, feedRecord(businessId, providerId, actor, "ended")),
  ]);
}

/** What an event of a booking is made of (`bookingEventSource`, `openFeed`). */
const eventColumns = {
  id: bookings.id,
  serviceName: services.name,
  customerName: bookings.customerName,
  customerEmail: bookings.customerEmail,
  startTime: bookings.startTime,
  endTime: bookings.endTime,
  status: bookings.status,
  updatedAt: bookings.updatedAt,
};

/** One booking of the business with its service's name, for its own calendar file; a 404 otherwise. */
export async function bookingEventSource(db: Database, businessId: string, id: string) {
  const [row] = await db
    .select(eventColumns)
    .from(bookings)
    .innerJoin(services, eq(services.id, bookings.serviceId))
    .where(and(eq(bookings.businessId, businessId), eq(bookings.id, id)))
    .limit(1);
  if (!row) throw new ApiError("not_found", `No booking ${id}.`);
  return row;
}

/**
 * The feed a token opens — its person's name and their bookings it shows, oldest first: not
 * cancelled, in the feed's window — in one D1 round trip, both found by the token's hash;
 * undefined for any other token.
 */
export async function openFeed(db: Database, token: string, now = Date.now()) {
  if (!feedTokenPattern.test(token)) return undefined;
  const tokenHash = await sha256Hex(token);
  const [[feed], events] = await db.batch([
    db
      .select({ name: providers.name })
      .from(calendarFeeds)
      .innerJoin(providers, eq(providers.id, calendarFeeds.providerId))
      .where(eq(calendarFeeds.tokenHash, tokenHash))
      .limit(1),
    db
      .select(eventColumns)
      .from(calendarFeeds)
      .innerJoin(
        bookingProviders,
        and(
          eq(bookingProviders.businessId, calendarFeeds.businessId),
          eq(bookingProviders.providerId, calendarFeeds.providerId),
        ),
      )
      .innerJoin(bookings, eq(bookings.id, bookingProviders.bookingId))
      .innerJoin(services, eq(services.id, bookings.serviceId))
      .where(
        and(
          eq(calendarFeeds.tokenHash, tokenHash),
          gte(bookingProviders.startTime, new Date(now - FEED_DAYS_BEFORE * DAY_MS).toISOString()),
          lt(bookingProviders.startTime, new Date(now + FEED_DAYS_AHEAD * DAY_MS).toISOString()),
          ne(bookings.status, "CANCELLED"),
        ),
      )
      .orderBy(asc(bookingProviders.startTime), asc(bookingProviders.bookingId))
      .limit(MAX_FEED_EVENTS),
  ]);
  return feed ? { name: feed.name, events } : undefined;
}
