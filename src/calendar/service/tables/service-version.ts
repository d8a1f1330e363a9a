/**
 * The newest service version this calendar has been told of. `PATCH /services/{id}` tells the
 * calendar before it answers 200, and every command carries the version of the service it was
 * decided against; a command with an older one is refused (`service_changed`) and the Worker
 * decides again on what D1 holds now. So no booking is accepted against settings a client has
 * already seen replaced.
 *
 * A change that existing bookings could conflict with (fewer seats) is proposed first: checked
 * here and, if it fits, announced as pending for a short lease, during which commands decided
 * against the older version are refused too. The PATCH then writes D1 and confirms; a proposal
 * that is never confirmed lapses with its lease.
 */
import type { CalendarRefusal } from "../../types";

const KEY = "service_version";
const PENDING = "pending_version";
const PENDING_UNTIL = "pending_until_ms";

/** How long a proposed change holds older commands off while its PATCH writes D1. */
export const PROPOSAL_LEASE_MS = 15_000;

/** The service version record of one calendar. Every method runs inside the caller's transaction. */
export class ServiceVersion {
  constructor(private readonly sql: SqlStorage) {}

  /** Raises the known version to `version` (never lowers it); a proposal it reaches is settled. */
  note(version: number): void {
    this.sql.exec(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = max(value, excluded.value)",
      KEY,
      version,
    );
    if (version >= this.read(PENDING)) this.sql.exec("DELETE FROM meta WHERE key IN (?, ?)", PENDING, PENDING_UNTIL);
  }

  /** Announces `version` as pending until `until`: older commands are refused meanwhile. */
  propose(version: number, until: number): void {
    for (const [key, value] of [
      [PENDING, version],
      [PENDING_UNTIL, until],
    ] as const) {
      this.sql.exec(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        key,
        value,
      );
    }
  }

  /** The newest version known, counting a live proposal. */
  current(now: number): number {
    const known = this.read(KEY);
    return this.read(PENDING_UNTIL) > now ? Math.max(known, this.read(PENDING)) : known;
  }

  /** A refusal when `version` is older than the newest known (or proposed); else notes it. */
  stale(version: number, now = Date.now()): CalendarRefusal | undefined {
    if (version < this.current(now)) {
      return { code: "service_changed", detail: "The service changed while this request ran; it is decided again." };
    }
    if (version > this.read(KEY)) this.note(version);
    return undefined;
  }

  private read(key: string): number {
    return this.sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value ?? 0;
  }
}
