/**
 * Which upcoming reservations a new seat count would leave over capacity: a configuration change
 * (fewer seats, or no providers any more) is refused while any would, so nothing is ever booked
 * beyond what the service offers. A pure function over the calendar's rows.
 */

/** A row that holds a seat: its id, blocked span `[s, e)` and provider (null: none). */
export type SeatRow = { id: string; s: number; e: number; p: string | null };

/** A moment where more rows overlap than the new configuration has seats. */
export type SeatConflict = {
  /** The provider whose session would be over capacity; null when seats are counted for the service. */
  providerId: string | null;
  /** When the overlap begins (epoch ms). */
  at: number;
  /** The rows overlapping then. */
  rowIds: string[];
};

/** How many conflicts a refusal lists. */
const MAX_LISTED = 5;

/**
 * Conflicts of `rows` with `capacity` seats: counted over all rows, or (`perProvider`) in each
 * provider's session, where rows without a provider take a seat in every session.
 */
export function seatConflicts(rows: readonly SeatRow[], capacity: number, perProvider: boolean): SeatConflict[] {
  if (!perProvider) return overfull(rows, capacity, null);
  const nobody = rows.filter((r) => r.p === null);
  const providers = [...new Set(rows.flatMap((r) => (r.p === null ? [] : [r.p])))].sort();
  const groups: { p: string | null; rows: SeatRow[] }[] =
    providers.length > 0
      ? providers.map((p) => ({ p, rows: [...rows.filter((r) => r.p === p), ...nobody] }))
      : [{ p: null, rows: nobody }];
  return groups.flatMap((g) => overfull(g.rows, capacity, g.p)).slice(0, MAX_LISTED);
}

/** One sweep over the rows in time order; a conflict is recorded once per stretch over capacity. */
function overfull(rows: readonly SeatRow[], capacity: number, providerId: string | null): SeatConflict[] {
  // Half-open spans: at the same instant an end comes before a start.
  const events = rows
    .flatMap((r) => [
      { at: r.s, delta: 1, row: r },
      { at: r.e, delta: -1, row: r },
    ])
    .sort((a, b) => a.at - b.at || a.delta - b.delta);
  const active = new Set<string>();
  const conflicts: SeatConflict[] = [];
  let over = false;
  for (const event of events) {
    if (event.delta < 0) active.delete(event.row.id);
    else active.add(event.row.id);
    if (active.size > capacity && !over) {
      conflicts.push({ providerId, at: event.at, rowIds: [...active].sort() });
      if (conflicts.length >= MAX_LISTED) break;
    }
    over = active.size > capacity;
  }
  return conflicts;
}

/** A claim on a resource's units: its id, session and blocked span. */
export type UnitClaim = { claimId: string; session: string; s: number; e: number };

/**
 * Moments where a resource's claims would need more than `quantity` units: the claims of one
 * session share a unit, so each session counts once over the span its claims cover. A conflict
 * names the claims (booking or hold ids) of the sessions overlapping then.
 */
export function unitConflicts(claims: readonly UnitClaim[], quantity: number): SeatConflict[] {
  const sessions = new Map<string, SeatRow & { claims: string[] }>();
  for (const c of claims) {
    const known = sessions.get(c.session);
    if (known) {
      known.s = Math.min(known.s, c.s);
      known.e = Math.max(known.e, c.e);
      known.claims.push(c.claimId);
    } else sessions.set(c.session, { id: c.session, s: c.s, e: c.e, p: null, claims: [c.claimId] });
  }
  return overfull([...sessions.values()], quantity, null).map((conflict) => ({
    ...conflict,
    rowIds: conflict.rowIds.flatMap((session) => sessions.get(session)?.claims ?? []).sort(),
  }));
}
