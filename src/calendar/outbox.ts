/** Outcome of one D1 write attempt for a batch of outbox entries. */
export type PersistOutcome =
  | { ok: true; customerIds: Map<string, string>; eventsWithDeliveries: Set<string> }
  | { ok: false; error: string };

/** Exponential backoff for D1 retries: 1 s, 2 s, 4 s … capped at 5 minutes. */
export function retryDelayMs(attempt: number): number {
  return Math.min(1_000 * 2 ** Math.max(0, attempt - 1), 300_000);
}
