/**
 * How a calendar object knows its tenant's shard. Every call a tenant's work makes carries the
 * shard (`onShard`, src/shards/shards.ts); the object keeps the last one it was told in its own
 * storage, so its alarms (write-behind, reconciliation, reminders, offers) reach the shard with
 * no directory lookup. An object never told one (made before shards existed, or reached by a
 * bare stub) works on shard 0, where a deployment that grew from one database keeps its tenants
 * (docs/operations.md, "Shards").
 *
 * A tenant's move (src/relocations) holds the object's writes (src/shards/held.ts), then tells it
 * the new shard; from then on a call that still carries the old shard (an isolate that has not
 * yet seen the move) is refused, so it cannot point the object back.
 */

import type { WithBookmark } from "../db/bookmarks";
import { movingError } from "../lib/transient";
import { RelocationGate } from "./held";
import { businessEnv } from "./shards";

const SHARD = "tenant-shard";
const HELD = "tenant-held";
const LEFT = "tenant-left-shard";

/** Methods `onShard` never runs: the runtime's own entry points, the dispatcher and the move's own. */
const notCommands = new Set([
  "constructor",
  "alarm",
  "fetch",
  "onShard",
  "webSocketMessage",
  "webSocketClose",
  "holdForMove",
  "resumeOn",
]);

/** A calendar object's shard, and whether a move holds its writes; kept in the object's storage. */
export class ObjectTenancy {
  private readonly gate: RelocationGate;
  private shard: number;
  private tenant: Env | undefined;

  /** `reads`: the object's methods that change nothing, answered while its writes are held. */
  constructor(
    private readonly ctx: DurableObjectState,
    private readonly root: Env,
    private readonly reads: ReadonlySet<string>,
  ) {
    this.gate = new RelocationGate(() => this.held);
    this.shard = ctx.storage.kv.get<number>(SHARD) ?? 0;
  }

  /** Whether a move holds the object's writes. */
  get held(): boolean {
    return this.ctx.storage.kv.get<boolean>(HELD) === true;
  }

  /** The business env the object works with: its shard, with D1 behind the move's gate. */
  get env(): Env {
    if (!this.tenant) {
      const tenant = businessEnv(this.root, this.shard);
      this.tenant = { ...tenant, DB: this.gate.database(tenant.DB) };
    }
    return this.tenant;
  }

  /**
   * Admits a tenant's call of `method` carrying `shard`: keeps the shard (the caller read it from
   * the directory, so it wins, as after a tenant moved) unless the tenant has left it, and
   * refuses anything but a read while held. Answers the env to run the call with.
   */
  admit(shard: unknown, method: string): Env {
    if (!Number.isInteger(shard) || (shard as number) < 0) throw new TypeError("A shard is a whole number.");
    if (this.ctx.storage.kv.get<number>(LEFT) === shard) throw movingError("A call for the old database");
    if (this.held && !this.reads.has(method)) throw movingError("A change");
    this.adopt(shard as number);
    return this.env;
  }

  /**
   * Holds the object's writes (durably: a reset keeps them held) and answers once every D1
   * statement that started before has finished. Idempotent.
   */
  async hold(): Promise<void> {
    this.ctx.storage.kv.put(HELD, true);
    await this.gate.settled();
  }

  /** Moves the object to `shard` and releases its writes; calls carrying `from` are refused from now on. Idempotent. */
  resume(shard: number, from: number): void {
    this.ctx.storage.transactionSync(() => {
      if (from !== shard) this.ctx.storage.kv.put(LEFT, from);
      else this.ctx.storage.kv.delete(LEFT);
      this.adopt(shard);
      this.ctx.storage.kv.delete(HELD);
    });
  }

  private adopt(shard: number): void {
    if (shard === this.shard && this.ctx.storage.kv.get<number>(SHARD) === shard) return;
    if (this.ctx.storage.kv.get<number>(LEFT) === shard) this.ctx.storage.kv.delete(LEFT);
    this.ctx.storage.kv.put(SHARD, shard);
    this.shard = shard;
    this.tenant = undefined;
  }
}

/** The method a call carried by `onShard` names, bound to the object; a TypeError for any other name. */
export function commandOf(object: object, method: unknown): (...args: unknown[]) => unknown {
  const run = typeof method === "string" ? (object as Record<string, unknown>)[method] : undefined;
  if (typeof method !== "string" || notCommands.has(method) || typeof run !== "function") {
    throw new TypeError(`No calendar method ${String(method)}.`);
  }
  return (run as (...args: unknown[]) => unknown).bind(object);
}

/**
 * Runs a call carried by `onShard`; when the caller asks (`withBookmark`, a request that answers
 * a D1 bookmark), answers the call's value with the bookmark of the object's latest D1 write
 * once the call is done (`bookmark`, read then), which covers whatever the call waited to have
 * written.
 */
export async function answerOnShard(
  run: (...args: unknown[]) => unknown,
  args: unknown[],
  withBookmark: unknown,
  bookmark: string | null | (() => string | null),
): Promise<unknown> {
  const value = await run(...args);
  if (withBookmark !== true) return value;
  return { value, bookmark: typeof bookmark === "function" ? bookmark() : bookmark } satisfies WithBookmark;
}
