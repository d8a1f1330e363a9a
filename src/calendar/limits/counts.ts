/**
 * What the limits and balanced assignment read of a service's calendar (storage.ts): the
 * seats held by rows starting in a span — read from the 15-minute buckets the triggers keep, so a
 * day is at most 96 rows and a week 672 however many bookings they hold — the upcoming bookings
 * of one customer, and the order people were last given bookings in. Every method runs inside
 * the caller's transaction.
 */
import type { Span } from "../rules/service-rules";
import { BUCKET_MS } from "./storage";

const SEATED = "status IN ('PENDING', 'CONFIRMED') AND start_at_ms IS NOT NULL";
/** A span whose ends sit on buckets; a zone a fraction of a quarter hour from UTC has none (LMT). */
const aligned = (span: Span) => span.start % BUCKET_MS === 0 && span.end % BUCKET_MS === 0;
const ids = (list: readonly string[]) => JSON.stringify(list);

/** A count of the rows starting at some instant: per bucket, or (`exact`) per start. */
export type Starts = { at: number; n: number }[];

export class LimitCounts {
  constructor(private readonly sql: SqlStorage) {}

  /** Rows holding a seat that start in `span`: all of them, or one provider's. */
  starting(span: Span, provider = ""): number {
    if (!aligned(span)) {
      const where = provider ? "provider_id = ? AND" : "? = '' AND";
      return this.sql
        .exec<{ n: number }>(
          `SELECT count(*) AS n FROM bookings WHERE ${where} ${SEATED} AND start_at_ms >= ? AND start_at_ms < ?`,
          provider,
          span.start,
          span.end,
        )
        .one().n;
    }
    return this.sql
      .exec<{ n: number }>(
        "SELECT coalesce(sum(n), 0) AS n FROM seat_counts WHERE provider = ? AND bucket >= ? AND bucket < ?",
        provider,
        span.start / BUCKET_MS,
        span.end / BUCKET_MS,
      )
      .one().n;
  }

  /** Rows holding a seat that start in `span`, per provider of `people` (those with none left out). */
  startingPer(providers: readonly string[], span: Span): Map<string, number> {
    const rows = aligned(span)
      ? this.sql.exec<{ p: string; n: number }>(
          `SELECT provider AS p, sum(n) AS n FROM seat_counts
           WHERE provider IN (SELECT value FROM json_each(?)) AND bucket >= ? AND bucket < ? GROUP BY provider`,
          ids(providers),
          span.start / BUCKET_MS,
          span.end / BUCKET_MS,
        )
      : this.sql.exec<{ p: string; n: number }>(
          `SELECT provider_id AS p, count(*) AS n FROM bookings
           WHERE provider_id IN (SELECT value FROM json_each(?)) AND ${SEATED} AND start_at_ms >= ? AND start_at_ms < ?
           GROUP BY provider_id`,
          ids(providers),
          span.start,
          span.end,
        );
    return new Map(rows.toArray().map((r) => [r.p, r.n]));
  }

  /**
   * The starts of the rows holding a seat in `span`, in order, as the slot calendar sums them per
   * day and week: one entry per bucket (its first instant), or per row when the span is not on
   * buckets. One read for the whole range.
   */
  startsIn(span: Span): Starts {
    if (!aligned(span)) {
      return this.sql
        .exec<{ at: number; n: number }>(
          `SELECT start_at_ms AS at, count(*) AS n FROM bookings WHERE ${SEATED} AND start_at_ms >= ? AND start_at_ms < ?
           GROUP BY start_at_ms ORDER BY start_at_ms`,
          span.start,
          span.end,
        )
        .toArray();
    }
    return this.sql
      .exec<{ at: number; n: number }>(
        `SELECT bucket * ${BUCKET_MS} AS at, n FROM seat_counts
         WHERE provider = '' AND bucket >= ? AND bucket < ? AND n > 0 ORDER BY bucket`,
        span.start / BUCKET_MS,
        span.end / BUCKET_MS,
      )
      .toArray();
  }

  /**
   * The customer's bookings of the service that hold a seat and start after `now` (the e-mail
   * compared lower-cased, as SQLite lower-cases: ASCII letters), but `except`.
   */
  upcomingOf(email: string, now: number, except: readonly string[] = []): number {
    return this.sql
      .exec<{ n: number }>(
        `SELECT count(*) AS n FROM bookings
         WHERE customer_key = ? AND start_at_ms > ? AND ${SEATED} AND kind <> 'move'
           AND id NOT IN (SELECT value FROM json_each(?))`,
        email.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()),
        now,
        ids(except),
      )
      .one().n;
  }

  /** When each of `people` was last given a booking of the service (a rising number; absent: never). */
  madeOrder(providers: readonly string[]): Map<string, number> {
    const rows = this.sql
      .exec<{ p: string; seq: number }>(
        "SELECT provider AS p, seq FROM made_order WHERE provider IN (SELECT value FROM json_each(?))",
        ids(providers),
      )
      .toArray();
    return new Map(rows.map((r) => [r.p, r.seq]));
  }
}
