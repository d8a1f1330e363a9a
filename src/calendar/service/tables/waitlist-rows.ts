/**
 * How a waitlist row reads (tables/waitlist.ts): the status it shows at a time, its place in its slot's
 * line, and the entry it makes. A WAITING entry whose slot has begun can never be offered, so it
 * reads EXPIRED from the slot's start, worked out here on read (as a hold's expiry is): nothing
 * is written then, so nothing needs an alarm or can be lost.
 */
import type { WaitlistEntry, WaitlistStatus } from "../../../types/waitlist";

/** A row as read: status (as shown, and as stored) and hold live in columns, the rest of the entry in `record`. */
export type Row = {
  record: string;
  status: WaitlistStatus;
  stored: WaitlistStatus;
  hold_id: string | null;
  position: number | null;
};

/** What `record` keeps of an entry: all but what its columns hold (status, hold) or a query works out (position). */
export const recordOf = ({ status: _s, holdId: _h, position: _p, ...rest }: WaitlistEntry) => rest;

/** The status an entry shows at `?` (now): WAITING once its slot has begun reads EXPIRED. */
export const SHOWN_STATUS = "CASE WHEN w.status = 'WAITING' AND w.start_ms <= ? THEN 'EXPIRED' ELSE w.status END";

/** A WAITING entry's place while its slot is ahead of `?` (now): the WAITING entries of its slot created up to it. */
const POSITION = `CASE WHEN w.status = 'WAITING' AND w.start_ms > ? THEN (SELECT count(*) FROM waitlist q
  WHERE q.status = 'WAITING' AND q.start_ms = w.start_ms AND q.end_ms = w.end_ms
  AND coalesce(q.provider_id, '') = coalesce(w.provider_id, '') AND q.id <= w.id) END`;

/** An entry's columns as shown at now (bound twice: its status, then its position). */
export const SELECT_ENTRY = `SELECT record, ${SHOWN_STATUS} AS status, w.status AS stored, hold_id, ${POSITION} AS position`;

/** An entry from its row: the hold shows once offered (while WAITING the column marks an offer being placed). */
export const entryOf = (row: Row): WaitlistEntry => ({
  ...(JSON.parse(row.record) as Omit<WaitlistEntry, "status" | "holdId" | "position">),
  status: row.status,
  holdId: row.stored === "WAITING" ? null : row.hold_id,
  position: row.position,
});
