/**
 * The Worker the Workers tests run (vitest.config.ts `main`): the production exports, except
 * that the calendar's D1 writer and queue publisher can have a fault put in front of them, and
 * that every calendar counts the calls it answers for other objects (`calls`, by method; a
 * service's calendar also its bookings and hold reads for the Worker), so a test can bound the
 * work a request causes, and the queue consumer sends e-mails through a recorder of the real
 * `EMAIL` binding (with faults of its own). Production code has no such switch; only these
 * subclasses and wrappers do.
 */

/** Calls a calendar answered, by method name. */
export type Calls = Record<string, number>;

const count = (calls: Calls, method: string, n = 1) => {
  calls[method] = (calls[method] ?? 0) + n;
};

import type { BookingEvent } from "../../src/audit/events";
import type {
  ClaimCommand,
  ClaimResult,
  ClaimsResult,
  HeldClaim,
  ProviderSnapshot,
  Range,
  ResourceSnapshot,
  SeatCommand,
} from "../../src/calendar/claim-types";
import type { EventPublisher } from "../../src/calendar/d1/event-relay";
import type { PersistOutcome } from "../../src/calendar/d1/outbox";
import type { D1Writer, StoredBooking } from "../../src/calendar/d1/persist";
import type { WriteBehindSinks } from "../../src/calendar/d1/write-behind";
import { detectCalendarBusy } from "../../src/calendar/provider/conflicts";
import type { ReadLimits } from "../../src/calendar/provider/connected-sync";
import { ProviderCalendar as ProductionProviderCalendar } from "../../src/calendar/provider/provider-calendar";
import { ResourceCalendar as ProductionResourceCalendar } from "../../src/calendar/resource/resource-calendar";
import { ServiceCalendar as ProductionCalendar } from "../../src/calendar/service/object/service-calendar";
import type { SeatConfirmation } from "../../src/calendar/service/steps/seat-claims";
import type { CalendarResult, CreateBookingCommand } from "../../src/calendar/types";
import production from "../../src/index";
import { bindingMailer, type Mailer } from "../../src/messages/mailer";
import { queueConsumer } from "../../src/queue";
import { BusinessRelocation as ProductionBusinessRelocation } from "../../src/relocations/relocation";
import type { Hold } from "../../src/types/hold";

/** A message the consumer handed to the e-mail binding, and what came of it. */
export type SentMail = { message: EmailMessageBuilder; messageId?: string; error?: string };

/**
 * Every message the queue consumer passes to the e-mail binding (the real one: it is sent, and
 * captured as `wrangler dev` does), and faults in front of it: `before` fails the send without
 * sending (the service failed), `after` sends and then fails (the consumer is reset between
 * sending and recording), `refuse` fails with the binding's own refusal for those addresses.
 * Each `before`/`after` fault fires for as many sends as its count, then clears. On globalThis:
 * tests and the Worker share the isolate, whatever their module graphs.
 */
export type Mailbox = {
  sent: SentMail[];
  faults: { before?: number; after?: number; refuse?: string[] };
};

const shared = globalThis as { mailbox?: Mailbox };
shared.mailbox ??= { sent: [], faults: {} };
export const mailbox: Mailbox = shared.mailbox;

/** The real binding behind the recorder and its faults. */
export function recordingMailer(env: Env): Mailer {
  const real = bindingMailer(env);
  return async (message) => {
    const entry: SentMail = { message };
    mailbox.sent.push(entry);
    const { faults } = mailbox;
    const to = String(message.to);
    try {
      if (faults.refuse?.includes(to)) throw new Error(`email to ${to} not allowed`);
      if (faults.before) {
        faults.before--;
        throw new Error("injected: the e-mail service failed");
      }
      const result = await real(message);
      entry.messageId = result.messageId;
      if (faults.after) {
        faults.after--;
        throw new Error("injected: reset after sending, before recording");
      }
      return result;
    } catch (error) {
      entry.error = error instanceof Error ? error.message : String(error);
      throw error;
    }
  };
}

export default { ...production, queue: queueConsumer(recordingMailer) } satisfies ExportedHandler<Env, never>;

/**
 * Replacements for the calendar's sinks (each gets the real sink to call through to), and the
 * switches of its seat claims (a visit's segment): "before" throws before deciding, "after" once
 * the change is committed.
 */
export type CalendarFaults = {
  writeToD1?: (records: StoredBooking[], events: BookingEvent[], real: D1Writer) => Promise<PersistOutcome>;
  publish?: (events: BookingEvent[], real: EventPublisher) => Promise<void>;
  claim?: "before" | "after";
  confirm?: "before" | "after";
  /** "fail": its live slot calendar cannot be read (as while it resets). */
  availability?: "fail";
  /** "lost": the call ends once its change (and the audit's record of it) committed, before the record reaches D1. */
  audit?: "lost";
};

/** The calendar with fault switches, set by tests inside `runInDurableObject`. */
export class ServiceCalendar extends ProductionCalendar {
  readonly faults: CalendarFaults = {};
  readonly calls: Calls = {};

  protected override sinks(): WriteBehindSinks {
    const real = super.sinks();
    return {
      writeToD1: (records, events) =>
        this.faults.writeToD1
          ? this.faults.writeToD1(records, events, real.writeToD1)
          : real.writeToD1(records, events),
      publish: (events) => (this.faults.publish ? this.faults.publish(events, real.publish) : real.publish(events)),
    };
  }

  protected override async writeAudit(): Promise<void> {
    if (this.faults.audit === "lost")
      throw new Error("injected: service calendar lost before writing its audit records");
    return super.writeAudit();
  }

  override async createBooking(command: CreateBookingCommand): Promise<CalendarResult> {
    count(this.calls, "createBooking");
    return super.createBooking(command);
  }

  override async getHold(id: string): Promise<Hold | null> {
    count(this.calls, "getHold");
    return super.getHold(id);
  }

  override async claim(command: SeatCommand): Promise<ClaimResult> {
    count(this.calls, "claim");
    if (this.faults.claim === "before") throw new Error("injected: service calendar reset before the seat claim");
    const result = await super.claim(command);
    if (this.faults.claim === "after") throw new Error("injected: service calendar reset after the seat claim");
    return result;
  }

  override async claimEach(commands: SeatCommand[]): Promise<ClaimsResult> {
    count(this.calls, "claimEach");
    if (this.faults.claim === "before") throw new Error("injected: service calendar reset before the seat claims");
    const result = await super.claimEach(commands);
    if (this.faults.claim === "after") throw new Error("injected: service calendar reset after the seat claims");
    return result;
  }

  override async releaseEach(claimIds: string[]): Promise<{ released: number }> {
    count(this.calls, "releaseEach");
    return super.releaseEach(claimIds);
  }

  /** `availability` reads through this one, so a fault (and a count) here covers both. */
  override async availabilityEach(...args: Parameters<ProductionCalendar["availabilityEach"]>) {
    count(this.calls, "availability");
    if (this.faults.availability === "fail") throw new Error("injected: service calendar reset before a read");
    return super.availabilityEach(...args);
  }

  override async confirm(confirmation: SeatConfirmation): Promise<{ ok: boolean }> {
    count(this.calls, "confirm");
    if (this.faults.confirm === "before") throw new Error("injected: service calendar reset before the confirmation");
    const result = await super.confirm(confirmation);
    if (this.faults.confirm === "after") throw new Error("injected: service calendar reset after the confirmation");
    return result;
  }
}

/** What a test may put in front of a person's calendar object's CalDAV requests, and its read bounds. */
export type ConnectedCalendarFaults = {
  /** "after": connecting or disconnecting throws once committed (the answer lost, and the request's own audit write with it). */
  change?: "after";
  /** Sees every request to a calendar server, with the real sender to call through to. */
  caldav?: (request: Request, real: (request: Request) => Promise<Response>, reset: () => never) => Promise<Response>;
  limits?: ReadLimits;
};

type ClaimedFaults = { claim?: "before" | "after"; release?: "before" | "after"; configure?: "fail" };

/**
 * The fault switches and call counts of a claimed calendar (a person's or a resource's): "before"
 * throws before deciding (the object reset before its write), "after" throws once the change is
 * committed (the answer lost); `configure: "fail"` refuses new settings (the object unreachable).
 */
function withFaults<S extends ProviderSnapshot | ResourceSnapshot>(
  kind: string,
  instance: { faults: ClaimedFaults; calls: Calls },
) {
  const { faults, calls } = instance;
  const around = <T>(switch_: "before" | "after" | undefined, what: string, call: () => T): T => {
    if (switch_ === "before") throw new Error(`injected: ${kind} calendar reset before ${what}`);
    const result = call();
    if (switch_ === "after") throw new Error(`injected: ${kind} calendar reset after ${what}`);
    return result;
  };
  return {
    configure(snapshot: S, real: (s: S) => { version: number }) {
      if (faults.configure === "fail") throw new Error(`injected: ${kind} calendar reset before configure`);
      return real(snapshot);
    },
    claim(real: () => ClaimResult) {
      count(calls, "claim");
      return around(faults.claim, "the claim", real);
    },
    claimEach(real: () => ClaimsResult) {
      count(calls, "claimEach");
      return around(faults.claim, "the claims", real);
    },
    release(real: () => { released: boolean }) {
      count(calls, "release");
      return around(faults.release, "the release", real);
    },
    releaseEach(real: () => { released: number }) {
      count(calls, "releaseEach");
      return around(faults.release, "the releases", real);
    },
  };
}

/** The provider calendar with fault switches (`withFaults`) and call counts. */
export class ProviderCalendar extends ProductionProviderCalendar {
  readonly faults: ClaimedFaults & ConnectedCalendarFaults = {};
  readonly calls: Calls = {};
  private readonly hooks = withFaults<ProviderSnapshot>("provider", this);

  protected override send(request: Request): Promise<Response> {
    const real = (r: Request) => super.send(r);
    const reset = (): never => {
      this.ctx.abort("injected: provider calendar reset during a calendar request");
      throw new Error("unreachable");
    };
    return this.faults.caldav ? this.faults.caldav(request, real, reset) : real(request);
  }

  protected override readLimits(): ReadLimits {
    return this.faults.limits ?? super.readLimits();
  }

  override connectCalendar(...args: Parameters<ProductionProviderCalendar["connectCalendar"]>) {
    const added = super.connectCalendar(...args);
    if (this.faults.change === "after") throw new Error("injected: provider calendar lost its answer after connecting");
    return added;
  }

  override disconnectCalendar(...args: Parameters<ProductionProviderCalendar["disconnectCalendar"]>) {
    const removed = super.disconnectCalendar(...args);
    if (this.faults.change === "after")
      throw new Error("injected: provider calendar lost its answer after disconnecting");
    return removed;
  }

  /**
   * Test-only path of the model-based test: stores (or, with null, forgets) one member's busy
   * spans as a read of a calendar would, without a calendar server.
   */
  setBusy(member: string, spans: { start: number; end: number }[] | null): void {
    this.ctx.storage.transactionSync(() => {
      if (spans) this.connected.busy.replace("model", member, { etag: null, kind: "busy", continues: false }, spans);
      else this.connected.busy.forget("model", member);
      // As a read that changed the busy times does: its conflicts found in the same transaction.
      detectCalendarBusy(this.connected["conflictContext"](), this.connected.busy, Date.now());
      this.scheduleAlarm();
    });
  }

  override configure(snapshot: ProviderSnapshot): { version: number } {
    return this.hooks.configure(snapshot, (s) => super.configure(s));
  }

  override claim(command: ClaimCommand<ProviderSnapshot>): ClaimResult {
    return this.hooks.claim(() => super.claim(command));
  }

  override claimEach(commands: ClaimCommand<ProviderSnapshot>[]): ClaimsResult {
    return this.hooks.claimEach(() => super.claimEach(commands));
  }

  override release(claimId: string): { released: boolean } {
    return this.hooks.release(() => super.release(claimId));
  }

  override releaseEach(claimIds: string[]): { released: number } {
    return this.hooks.releaseEach(() => super.releaseEach(claimIds));
  }

  override dayLoads(ranges: readonly Range[]): number[] {
    count(this.calls, "dayLoads");
    return super.dayLoads(ranges);
  }

  override claimsBetween(from: number, to: number): HeldClaim[] {
    count(this.calls, "claimsBetween");
    return super.claimsBetween(from, to);
  }

  override claimsAround(ranges: readonly Range[]): HeldClaim[][] {
    count(this.calls, "claimsAround");
    return super.claimsAround(ranges);
  }
}

/** The resource calendar with the same fault switches and call counts as a person's. */
export class ResourceCalendar extends ProductionResourceCalendar {
  readonly faults: ClaimedFaults = {};
  readonly calls: Calls = {};
  private readonly hooks = withFaults<ResourceSnapshot>("resource", this);

  override configure(snapshot: ResourceSnapshot): { version: number } {
    return this.hooks.configure(snapshot, (s) => super.configure(s));
  }

  override claim(command: ClaimCommand<ResourceSnapshot>): ClaimResult {
    return this.hooks.claim(() => super.claim(command));
  }

  override claimEach(commands: ClaimCommand<ResourceSnapshot>[]): ClaimsResult {
    return this.hooks.claimEach(() => super.claimEach(commands));
  }

  override release(claimId: string): { released: boolean } {
    return this.hooks.release(() => super.release(claimId));
  }

  override releaseEach(claimIds: string[]): { released: number } {
    return this.hooks.releaseEach(() => super.releaseEach(claimIds));
  }

  override claimsBetween(from: number, to: number): HeldClaim[] {
    count(this.calls, "claimsBetween");
    return super.claimsBetween(from, to);
  }

  override claimsAround(ranges: readonly Range[]): HeldClaim[][] {
    count(this.calls, "claimsAround");
    return super.claimsAround(ranges);
  }
}

/** The move of a business with a fault switch: `failAt` names a checkpoint (a step, or a step's point after its D1 write) that throws once. */
export class BusinessRelocation extends ProductionBusinessRelocation {
  readonly faults: { failAt?: string } = {};

  protected override checkpoint(where: string): void {
    if (this.faults.failAt !== where) return;
    this.faults.failAt = undefined;
    throw new Error(`injected: the move's object reset at ${where}`);
  }
}
