/**
 * D1 bookmarks as a request collects them: its own session's, and those the calendar objects
 * hand back for the D1 writes the request waited for. D1's bookmarks sort as strings, oldest to
 * newest, so the one to answer is the greatest.
 */

/** The later of two bookmarks (either may be missing). */
export function laterBookmark(a: string | null | undefined, b: string | null | undefined): string | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return a >= b ? a : b;
}

/** What a calendar call carried by `onShard` answers when the caller asks for its bookmark too. */
export type WithBookmark = { value: unknown; bookmark: string | null };

/** The bookmarks the calendar objects handed back to one request: the latest is kept. */
export class CalendarBookmarks {
  latest: string | null = null;

  /** Keeps `bookmark` if it is later than what was kept. */
  saw(bookmark: string | null | undefined): void {
    this.latest = laterBookmark(this.latest, bookmark);
  }
}
