import type { AuditRow } from "../../audit/record";
import type { ClaimRefusal, ClaimSpan, HeldClaim, OverlappingClaim, ProviderSnapshot, Range } from "../claim-types";
import { ClaimedCalendar } from "../claims/claimed-calendar";
import type { BusySpan } from "../connected/expand";
import { claimsPerDay, dayLimitRefusal } from "../limits/provider-day";
import { checkProviderFree, checkProviderWorking } from "../rules/provider-rules";
import type { Span } from "../rules/service-rules";
import { ConnectedCalendars } from "./connected-calendars";
import { DEFAULT_LIMITS, type ReadLimits } from "./connected-sync";
import type { ConnectedCalendar, NewCalendar } from "./connections";

/**
 * A person's time as the slot calendar reads it: the claims on it, their own calendars' busy
 * spans, and (with a daily limit) their claims per local day of the slots' range.
 */
export type ProviderCalendarTime = { claims: HeldClaim[]; busy: BusySpan[]; days: (Span & { n: number })[] };

/**
 * The calendar of one business's provider: the single authority on a person's time across every
 * service they perform. A person takes one session at a time; a group session takes up to its
 * service's capacity of seats; and nothing is claimed over a busy time of their own calendars
 * (docs/staff-calendars.md), which this object reads and writes their bookings into.
 */
export class ProviderCalendar extends ClaimedCalendar<ProviderSnapshot> {
  protected readonly reasons = { unavailable: "provider_unavailable", busy: "provider_busy" } as const;
  protected readonly connected: ConnectedCalendars;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env, "provider");
    const object = () => this.env;
    this.connected = new ConnectedCalendars({
      storage: ctx.storage,
      // The business env as it stands (the shard may be learnt after construction).
      get env() {
        return object();
      },
      fetcher: (request) => this.send(request),
      limits: () => this.readLimits(),
      provider: () => {
        const settings = this.stored();
        return settings && { businessId: settings.businessId, providerId: settings.id, timezone: settings.timezone };
      },
      arm: () => this.scheduleAlarm(),
    });
  }

  protected refuse(provider: ProviderSnapshot, claim: ClaimSpan, overlapping: OverlappingClaim[]): ClaimRefusal | null {
    return (
      checkProviderWorking(provider, claim.start, claim.end) ??
      checkProviderFree(claim, overlapping) ??
      this.connected.refusal(claim) ??
      dayLimitRefusal(this.sql, provider, claim, Date.now())
    );
  }

  /** How the object reaches calendar servers (a test puts faults in front of it). */
  protected send(request: Request): Promise<Response> {
    return fetch(request);
  }

  /** The bounds of one read (a test narrows them to reach them with a few events). */
  protected readLimits(): ReadLimits {
    return DEFAULT_LIMITS;
  }

  /**
   * Connects one of the person's calendars (settings pushed first), keeping the audit's `record`
   * of it until D1 has it; null when they have 5 already.
   */
  connectCalendar(provider: ProviderSnapshot, calendar: NewCalendar, record: AuditRow): ConnectedCalendar | null {
    this.configure(provider);
    return this.connected.connect(calendar, record);
  }

  /** Disconnects one of the person's calendars, keeping the audit's `record` of it until D1 has it; false if unknown. */
  disconnectCalendar(id: string, record: AuditRow): boolean {
    return this.connected.disconnect(id, record);
  }

  listCalendars(): ConnectedCalendar[] {
    return this.connected.list();
  }

  getCalendar(id: string): ConnectedCalendar | null {
    return this.connected.get(id);
  }

  /** Reads the calendar now and answers it as it is then (`syncStatus` says how the read went). */
  syncCalendar(id: string): Promise<ConnectedCalendar | null> {
    return this.connected.sync(id);
  }

  /**
   * Live claims and own-calendar busy spans overlapping `[from, to)`: what the slot calendar
   * counts; with `slots` (the range slots start in) and a daily limit in `person`, the claims per day.
   */
  timeBetween(from: number, to: number, provider?: ProviderSnapshot, slots?: Range): ProviderCalendarTime {
    const days = provider && slots ? claimsPerDay(this.sql, provider, slots.from, slots.to, Date.now()) : [];
    return { claims: this.claimsBetween(from, to), busy: this.connected.busy.between(from, to), days };
  }

  /** As `timeBetween`, for each of several ranges in one call (a series' occurrences), `slots` beside them. */
  timeAround(ranges: readonly Range[], provider?: ProviderSnapshot, slots?: readonly Range[]): ProviderCalendarTime[] {
    return this.claimsAround(ranges).map((claims, i) => {
      const { from, to } = ranges[i] as Range;
      const at = slots?.[i];
      const days = provider && at ? claimsPerDay(this.sql, provider, at.from, at.to, Date.now()) : [];
      return { claims, busy: this.connected.busy.between(from, to), days };
    });
  }

  override async alarm(): Promise<void> {
    await super.alarm();
    try {
      await this.connected.runDue(Date.now());
    } finally {
      this.ctx.storage.transactionSync(() => this.scheduleAlarm());
    }
  }

  protected override ownWorkDue(): number | null {
    return this.connected.nextDue();
  }

  protected override claimStored(claim: ClaimSpan, decided: boolean): void {
    // A claim `refuse` just decided fits the hours and busy times; a hold's kept claim is checked anew.
    this.connected.claimStored(claim, decided ? null : this.stored());
  }

  protected override settingsChanged(provider: ProviderSnapshot): void {
    this.connected.hoursChanged(provider);
    // The conflicts it found are owed to D1 and the webhook now, not at some later alarm.
    this.scheduleAlarm();
  }

  protected override claimReleased(claimId: string): void {
    this.connected.claimReleased(claimId, this.stored());
  }
}
