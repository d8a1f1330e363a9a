/**
 * The SQLite tables behind booking limits and balanced assignment (counts.ts reads them).
 *
 * - Every row's start and customer e-mail (lower-cased) are columns computed from its record,
 *   so no writer sets them and an edit of the record (a customer's rewrite) keeps them right. A
 *   hold's row carries its start in its record for this.
 * - `seat_counts`: the rows holding a seat (PENDING or CONFIRMED, of any kind: bookings, moves'
 *   new times, holds, visit segments, tentative ones too) per 15-minute bucket of their start, in
 *   total (`provider` '') and per provider. Triggers keep it in the statement that inserts,
 *   updates or deletes a row, so no path that takes or frees a seat can leave it behind. A bucket
 *   is zone-free: every time zone in use is a whole number of quarter hours from UTC, so a local
 *   day is 96 buckets and an ISO week 672, whatever the zone (and whenever it changes).
 * - `made_order`: per provider, the order in which their last booking (or hold, or segment) of
 *   this service was made, for the ties of balanced assignment.
 */

/** The width of a `seat_counts` bucket (the literal 900000 in the triggers). */
export const BUCKET_MS = 15 * 60_000;

const SEATED = "status IN ('PENDING', 'CONFIRMED') AND start_at_ms IS NOT NULL";

/** Adds one to the buckets of row `r` (NEW or OLD) where it holds a seat, or takes one away (`-1`). */
const tally = (r: "NEW" | "OLD", delta: 1 | -1) =>
  `INSERT INTO seat_counts (provider, bucket, n)
     SELECT '', ${r}.start_at_ms / 900000, ${delta} WHERE ${r}.status IN ('PENDING', 'CONFIRMED') AND ${r}.start_at_ms IS NOT NULL
     ON CONFLICT (provider, bucket) DO UPDATE SET n = n + ${delta};
   INSERT INTO seat_counts (provider, bucket, n)
     SELECT ${r}.provider_id, ${r}.start_at_ms / 900000, ${delta}
     WHERE ${r}.status IN ('PENDING', 'CONFIRMED') AND ${r}.start_at_ms IS NOT NULL AND ${r}.provider_id IS NOT NULL
     ON CONFLICT (provider, bucket) DO UPDATE SET n = n + ${delta};`;

/** The migration: columns, counts from the rows already held, then the triggers that keep them. */
export const limitMigration = `
  UPDATE bookings SET record = json_set(record, '$.startTime',
      (SELECT json_extract(h.record, '$.startTime') FROM holds h WHERE h.id = bookings.id))
    WHERE kind = 'hold';
  ALTER TABLE bookings ADD COLUMN start_at_ms INTEGER GENERATED ALWAYS AS
    (CAST(round((julianday(json_extract(record, '$.startTime')) - 2440587.5) * 86400000) AS INTEGER)) VIRTUAL;
  ALTER TABLE bookings ADD COLUMN customer_key TEXT GENERATED ALWAYS AS
    (lower(json_extract(record, '$.customerEmail'))) VIRTUAL;
  CREATE INDEX bookings_seated_start ON bookings (start_at_ms) WHERE ${SEATED};
  CREATE INDEX bookings_customer_upcoming ON bookings (customer_key, start_at_ms)
    WHERE ${SEATED} AND kind <> 'move' AND customer_key IS NOT NULL;
  CREATE TABLE seat_counts (
    provider TEXT NOT NULL,
    bucket INTEGER NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (provider, bucket)
  ) WITHOUT ROWID;
  INSERT INTO seat_counts (provider, bucket, n)
    SELECT '', start_at_ms / 900000, count(*) FROM bookings WHERE ${SEATED} GROUP BY 2;
  INSERT INTO seat_counts (provider, bucket, n)
    SELECT provider_id, start_at_ms / 900000, count(*) FROM bookings
    WHERE ${SEATED} AND provider_id IS NOT NULL GROUP BY 1, 2;
  CREATE TABLE made_order (provider TEXT PRIMARY KEY, seq INTEGER NOT NULL);
  CREATE TRIGGER seat_counts_insert AFTER INSERT ON bookings BEGIN ${tally("NEW", 1)} END;
  CREATE TRIGGER seat_counts_delete AFTER DELETE ON bookings BEGIN ${tally("OLD", -1)} END;
  CREATE TRIGGER seat_counts_update AFTER UPDATE OF status, record, provider_id ON bookings
    WHEN OLD.status IS NOT NEW.status OR OLD.start_at_ms IS NOT NEW.start_at_ms OR OLD.provider_id IS NOT NEW.provider_id
    BEGIN ${tally("OLD", -1)} ${tally("NEW", 1)} END;
  CREATE TRIGGER made_order_insert AFTER INSERT ON bookings
    WHEN NEW.provider_id IS NOT NULL AND NEW.kind IN ('booking', 'segment', 'hold')
    BEGIN
      INSERT INTO made_order (provider, seq)
        VALUES (NEW.provider_id, (SELECT coalesce(max(seq), 0) + 1 FROM made_order))
        ON CONFLICT (provider) DO UPDATE SET seq = excluded.seq;
    END;`;
