/**
 * The newest service version this calendar has been told of. `PATCH /services/{id}` tells the
 * calendar before it answers 200, and every command carries the version of the service it was
 * decided against; a command with an older one is refused (`service_changed`) and the Worker
 * decides again on what D1 holds now. So no booking is accepted against settings a client has
 * already seen replaced.
 */
import type { CalendarRefusal } from "./types";

const KEY = "service_version";

/** The service version record of one calendar. Every method runs inside the caller's transaction. */
export class ServiceVersion {
  constructor(private readonly sql: SqlStorage) {}

  /** Raises the known version to `version` (never lowers it). */
  note(version: number): void {
    this.sql.exec(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = max(value, excluded.value)",
      KEY,
      version,
    );
  }

  /** A refusal when `version` is older than the newest known; else notes it. */
  stale(version: number): CalendarRefusal | undefined {
    const known =
      this.sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = ?", KEY).toArray()[0]?.value ?? 0;
    if (version < known) {
      return { code: "service_changed", detail: "The service changed while this request ran; it is decided again." };
    }
    if (version > known) this.note(version);
    return undefined;
  }
}
