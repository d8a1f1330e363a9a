/**
 * The busy spans a person's own calendars give, per calendar member, and the members seen with
 * their ETags. Every method runs inside the caller's transaction. Overlap reads scan the start
 * index from no earlier than the longest span ever stored could reach back, as claims do.
 */
import type { BusySpan } from "../connected/expand";

/** What a member was last time: busy spans (maybe of a series going on past the window), our own event, or unreadable. */
export type MemberKind = "busy" | "own" | "malformed";

/** A member as stored: its ETag, kind and whether its series goes on past the window. */
export type StoredMember = { etag: string | null; kind: MemberKind; continues: boolean };

export class BusyStore {
  private maxBusyMs: number;

  constructor(private readonly sql: SqlStorage) {
    this.maxBusyMs = sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = 'max_busy_ms'").one().value;
  }

  /** The members of a calendar seen at its last read, by path. */
  members(calendarId: string): Map<string, StoredMember> {
    const rows = this.sql
      .exec<{ path: string; etag: string | null; kind: MemberKind; continues: number }>(
        "SELECT path, etag, kind, continues FROM members WHERE calendar_id = ?",
        calendarId,
      )
      .toArray();
    return new Map(rows.map((r) => [r.path, { etag: r.etag, kind: r.kind, continues: r.continues === 1 }]));
  }

  /** Replaces what a member gives with `spans` (none for our own or an unreadable one). */
  replace(calendarId: string, path: string, member: StoredMember, spans: readonly BusySpan[]): void {
    this.sql.exec("DELETE FROM busy WHERE calendar_id = ? AND path = ?", calendarId, path);
    this.sql.exec(
      `INSERT INTO members (calendar_id, path, etag, kind, continues) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (calendar_id, path) DO UPDATE SET etag = excluded.etag, kind = excluded.kind, continues = excluded.continues`,
      calendarId,
      path,
      member.etag,
      member.kind,
      member.continues ? 1 : 0,
    );
    let longest = 0;
    for (const span of spans) {
      this.sql.exec(
        "INSERT INTO busy (calendar_id, path, start_ms, end_ms) VALUES (?, ?, ?, ?)",
        calendarId,
        path,
        span.start,
        span.end,
      );
      longest = Math.max(longest, span.end - span.start);
    }
    if (longest > this.maxBusyMs) {
      this.maxBusyMs = longest;
      this.sql.exec("UPDATE meta SET value = ? WHERE key = 'max_busy_ms'", longest);
    }
  }

  /** Forgets a member (deleted, or no longer in the window) and its spans. */
  forget(calendarId: string, path: string): void {
    this.sql.exec("DELETE FROM busy WHERE calendar_id = ? AND path = ?", calendarId, path);
    this.sql.exec("DELETE FROM members WHERE calendar_id = ? AND path = ?", calendarId, path);
  }

  /** Forgets everything a calendar gave (it was disconnected). */
  dropCalendar(calendarId: string): void {
    this.sql.exec("DELETE FROM busy WHERE calendar_id = ?", calendarId);
    this.sql.exec("DELETE FROM members WHERE calendar_id = ?", calendarId);
  }

  /** How many busy spans a calendar gives now. */
  count(calendarId: string): number {
    return this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM busy WHERE calendar_id = ?", calendarId).one().n;
  }

  /** How many members of a calendar could not be read (kept out of the busy times). */
  countMalformed(calendarId: string): number {
    return this.sql
      .exec<{ n: number }>("SELECT count(*) AS n FROM members WHERE calendar_id = ? AND kind = 'malformed'", calendarId)
      .one().n;
  }

  /** Whether any busy span overlaps `[start, end)`. */
  overlaps(start: number, end: number): boolean {
    return (
      this.sql
        .exec(
          "SELECT 1 FROM busy WHERE start_ms > ? AND start_ms < ? AND end_ms > ? LIMIT 1",
          start - this.maxBusyMs - 1,
          end,
          start,
        )
        .toArray().length > 0
    );
  }

  /** The busy spans overlapping `[from, to)`, merged where they overlap or touch, by start. */
  between(from: number, to: number): BusySpan[] {
    const rows = this.sql
      .exec<{ s: number; e: number }>(
        "SELECT start_ms AS s, end_ms AS e FROM busy WHERE start_ms > ? AND start_ms < ? AND end_ms > ? ORDER BY start_ms",
        from - this.maxBusyMs - 1,
        to,
        from,
      )
      .toArray();
    const merged: BusySpan[] = [];
    for (const { s, e } of rows) {
      const last = merged[merged.length - 1];
      if (last && s <= last.end) last.end = Math.max(last.end, e);
      else merged.push({ start: s, end: e });
    }
    return merged;
  }

  /** Drops spans that ended before `before` (older than any window). */
  prune(before: number): void {
    this.sql.exec("DELETE FROM busy WHERE end_ms <= ?", before);
  }
}
