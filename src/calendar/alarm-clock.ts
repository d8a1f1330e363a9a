/**
 * The object's one alarm, armed from inside a synchronous transaction: SQLite-backed storage
 * commits `setAlarm` with the transaction's writes, so a row that needs the alarm and the alarm
 * itself become durable together. The time already set is kept here (read once at start-up), so
 * arming only ever moves the alarm earlier.
 */
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
