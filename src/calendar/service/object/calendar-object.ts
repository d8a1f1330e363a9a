import { DurableObject } from "cloudflare:workers";
import { answerOnShard, commandOf, ObjectTenancy } from "../../../shards/object-shard";
import { queuePublisher } from "../../d1/event-relay";
import { d1Writer } from "../../d1/persist";
import { WriteBehind, type WriteBehindSinks } from "../../d1/write-behind";
import { offerFreedSeats } from "../flows/offer-seats";
import type { FlowDeps } from "../tables/tables";
import { type CalendarTables, openTables } from "../tables/tables";

/** The service calendar's methods that change nothing: answered while a move holds its writes. */
const SERVICE_READS = new Set([
  "availability",
  "availabilityEach",
  "assignmentOrder",
  "getWaitlistEntry",
  "listWaitlist",
  "getHold",
  "snapshot",
]);

/**
 * The plumbing of a service's calendar object (its RPC surface is object/service-calendar.ts): its
 * tables, the write-behind to D1, what it owes other calendars, the waitlist's offers, and the
 * one alarm that re-drives all of them.
 */
export abstract class CalendarObject extends DurableObject<Env> {
  protected readonly tables: CalendarTables;
  protected readonly writeBehind: WriteBehind;
  /** The offer run in progress: runs go one at a time, so offers follow the queue. */
  private offering: Promise<void> = Promise.resolve();
  /** The tenant's shard, and whether a move holds the object's writes. */
  protected readonly tenancy: ObjectTenancy;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // The tenant's shard, as the last call told it (src/shards/object-shard.ts).
    this.tenancy = new ObjectTenancy(ctx, env, SERVICE_READS);
    this.env = this.tenancy.env;
    const sinks = this.sinks();
    this.tables = openTables(ctx.storage, sinks.publish);
    this.writeBehind = new WriteBehind(ctx.storage, this.tables, sinks.writeToD1);
    // Work a reset may have left without an alarm (outbox rows, events, tentative rows, owed
    // releases, live holds) gets one.
    ctx.blockConcurrencyWhile(async () => {
      await this.tables.alarm.load();
      this.armForPending();
    });
  }

  /**
   * Runs a tenant's call on the tenant's shard, which the object keeps for its alarms; with
   * `withBookmark`, answers the D1 bookmark of its latest write beside (src/db/bookmarks.ts).
   */
  async onShard(shard: number, method: string, args: unknown[], withBookmark?: boolean): Promise<unknown> {
    this.env = this.tenancy.admit(shard, method);
    return answerOnShard(commandOf(this, method), args, withBookmark, () => this.writeBehind.bookmark);
  }

  /**
   * A move of the tenant (src/relocations) holds the object's writes: from now on it answers
   * reads only and writes nothing to D1; answers once nothing it started is still writing.
   */
  async holdForRelocation(): Promise<void> {
    await this.tenancy.hold();
    await this.offering;
  }

  /**
   * The move is done: the object works on `shard` and refuses calls still carrying `from`; what it
   * owes D1 goes to the new shard now, and waiting entries get the seats freed meanwhile.
   */
  async resumeOn(shard: number, from: number): Promise<void> {
    this.tenancy.resume(shard, from);
    this.env = this.tenancy.env;
    this.ctx.storage.transactionSync(() => this.tables.outbox.dueNow(Date.now()));
    await this.writeBehind.afterCommit();
    await this.offerSeats();
    this.armForPending();
  }

  /** What the flows (flows/) need of this object. */
  protected deps(): FlowDeps {
    return { storage: this.ctx.storage, env: this.env, tables: this.tables };
  }

  /** Sends what is owed to other calendars; what fails stays owed for the alarm. */
  protected async sendTasks(): Promise<void> {
    if (this.tables.tasks.nextAttemptMs() === null) return;
    await this.tables.tasks.send(this.env, Date.now());
    this.armForPending();
  }

  /**
   * A seat may have freed: offers it to the waitlist (flows/offer-seats.ts), after the run in progress.
   * Called by a request, it arms the alarm first, so a reset before the run still leads to one
   * (the alarm's own run does not, or waiting entries would keep it firing).
   */
  protected async offerSeats(fromAlarm = false): Promise<void> {
    // A held object places no hold; the move's end runs the offers.
    if (this.tenancy.held) return;
    if (!this.ctx.storage.transactionSync(() => this.tables.waitlist.hasWaiting(Date.now()))) return;
    if (!fromAlarm) this.tables.alarm.arm(Date.now() + 1_000);
    const run = this.offering.then(() => offerFreedSeats(this.deps(), Date.now, () => this.sendTasks()));
    this.offering = run.catch(() => undefined);
    await run;
    await this.sendTasks();
    await this.writeBehind.afterCommit();
  }

  /** Arms the alarm for the earliest pending work: outbox, events, tentative rows, tasks, holds, reminders, audit records. */
  protected armForPending(): void {
    const next = [
      this.tables.outbox.nextAttemptMs(),
      this.tables.events.nextAttemptMs(),
      this.tables.reservations.nextTentativeDeadline(),
      this.tables.tasks.nextAttemptMs(),
      this.tables.holds.nextExpiry(),
      this.tables.reminders.nextDue(),
      this.tables.audit.nextDue(),
    ].filter((at): at is number => at !== null);
    if (next.length > 0) this.tables.alarm.arm(Math.max(Math.min(...next), Date.now()));
  }

  /** Where committed changes go: the tenant's shard and the webhook queue (read at each write: the shard may be learnt later). */
  protected sinks(): WriteBehindSinks {
    return {
      writeToD1: (records, events) => d1Writer(this.env.DB)(records, events),
      publish: (events) => queuePublisher(this.env.DELIVERY_QUEUE)(events),
    };
  }
}
