/**
 * A day's (or week's) fingerprint: a hash of what its columns show of every booking read —
 * times, status, people, rooms, conflicts, last change — so a booking made, moved, cancelled or
 * caught in a conflict anywhere (API, booking page, MCP, another office) changes it.
 */
import { sha256Hex } from "../../lib/crypto";
import type { Board } from "./load";

/** The board's weak ETag. */
export async function fingerprintOf(board: Board): Promise<string> {
  const facts = board.all.map((b) => [
    b.id,
    b.status,
    b.startTime,
    b.endTime,
    b.updatedAt,
    b.providerIds,
    b.resourceIds,
    b.conflicts.map((x) => x.kind),
  ]);
  const hours = board.columns.map((column) => [column.key, column.bands.map((band) => [band.start, band.end])]);
  const hex = await sha256Hex(JSON.stringify([facts, hours, board.capped]));
  return `W/"${hex.slice(0, 32)}"`;
}

/** Whether the request's `If-None-Match` names this ETag already. */
export const unchanged = (ifNoneMatch: string | undefined, etag: string) =>
  (ifNoneMatch ?? "").split(",").some((tag) => tag.trim() === etag || tag.trim() === "*");
