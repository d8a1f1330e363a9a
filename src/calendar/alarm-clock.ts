/**
 * The object's one alarm, armed from inside a synchronous transaction: SQLite-backed storage
 * commits `setAlarm` with the transaction's writes, so a row that needs the alarm and the alarm
 * itself become durable together. The time already set is kept here (read once at start-up), so
 * arming only ever moves the alarm earlier. The work it re-drives is retried with one backoff.
 */

/** Exponential backoff for work owed to D1, the queue or another calendar: 1 s, 2 s, 4 s … capped at 5 minutes. */
export function retryDelayMs(attempt: number): number {
  return Math.min(1_000 * 2 ** Math.max(0, attempt - 1), 300_000);
}

export class AlarmClock {
  private at: number | null = null;

  constructor(private readonly storage: DurableObjectStorage) {}

  /** Reads the alarm already set; call once, inside `blockConcurrencyWhile` at start-up. */
  async load(): Promise<void> {
    this.at = await this.storage.getAlarm();
  }

  /** Makes sure the alarm fires at `at` or earlier. */
  arm(at: number): void {
    if (this.at !== null && this.at <= at) return;
    this.at = at;
    // It only fails when the object is being reset; the next instance re-arms from its tables.
    this.storage.setAlarm(at).catch(() => {
      this.at = null;
    });
  }

  /** The alarm fired (the runtime cleared it): the next `arm` sets a new one. */
  fired(): void {
    this.at = null;
  }
}
