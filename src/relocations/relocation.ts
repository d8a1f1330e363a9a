import { DurableObject } from "cloudflare:workers";
import { errorText } from "../lib/api-error";
import { directoryOf, isShard, shardDatabase } from "../shards/shards";
import { CALENDAR_KINDS, type CalendarKind, calendarsPage } from "./held-calendars";
import { copyPage, DELETED_TABLES, deletePage, RELOCATED_TABLES } from "./rows";

/** The steps of a relocation, in order (docs/operations.md, "Relocating a business"). */
export const RELOCATION_STEPS = ["hold", "grace", "seal", "copy", "switch", "release", "delete", "done"] as const;
export type RelocationStep = (typeof RELOCATION_STEPS)[number];

/** A relocation as its object records it: where it is, and where in that step (a table or calendar kind, and a cursor). */
export type RelocationRecord = {
  businessId: string;
  from: number;
  to: number;
  step: RelocationStep;
  /** The table (copy, delete) or calendar kind (seal, release) the step is at, and the cursor in it. */
  part: number;
  cursor: number | string;
  /** Seconds between holding the old shard's writes and sealing its calendars (requests already past their key check finish). */
  graceSeconds: number;
  startedAt: string;
  heldAt: string | null;
  /** When the calendars were released on the new shard: writes were held from `heldAt` until then. */
  releasedAt: string | null;
  finishedAt: string | null;
  /** The last failure, retried by the alarm. */
  error: string | null;
  attempts: number;
};

// The stored record's key keeps its first name, so a relocation under way when this deploys goes on.
const KEY = "move";
/** Work one alarm does before it hands over to the next (so a big tenant's copy is many short runs). */
const RUN_MS = 5_000;

/**
 * One business's relocation from its shard to another: an object per business (named by its id) that
 * records each step and each page of a step in its own storage before going on, and an alarm that
 * re-drives the relocation after any failure or reset. Every step is idempotent, so running one again
 * after a crash at any point changes nothing it already did.
 */
export class BusinessRelocation extends DurableObject<Env> {
  /** Starts the relocation of `businessId` to shard `to`, or answers the relocation already under way there. */
  async start(businessId: string, to: number, graceSeconds: number): Promise<RelocationRecord | { refused: string }> {
    const current = this.ctx.storage.kv.get<RelocationRecord>(KEY);
    if (current && current.step !== "done") {
      return current.to === to ? current : { refused: `A relocation to shard ${current.to} is under way.` };
    }
    if (!isShard(this.env, to)) return { refused: `There is no shard ${to}.` };
    const row = await directoryOf(this.env)
      .prepare("SELECT shard FROM businesses WHERE id = ?")
      .bind(businessId)
      .first<{ shard: number }>();
    if (!row) return { refused: `No business ${businessId}.` };
    if (row.shard === to) return { refused: `The business is on shard ${to} already.` };
    const relocation: RelocationRecord = {
      businessId,
      from: row.shard,
      to,
      step: "hold",
      part: 0,
      cursor: 0,
      graceSeconds,
      startedAt: new Date().toISOString(),
      heldAt: null,
      releasedAt: null,
      finishedAt: null,
      error: null,
      attempts: 0,
    };
    this.save(relocation);
    await this.ctx.storage.setAlarm(Date.now());
    return relocation;
  }

  /** The relocation as recorded, or null when this business never moved. */
  status(): RelocationRecord | null {
    return this.ctx.storage.kv.get<RelocationRecord>(KEY) ?? null;
  }

  override async alarm(): Promise<void> {
    let relocation = this.ctx.storage.kv.get<RelocationRecord>(KEY);
    const until = Date.now() + RUN_MS;
    try {
      while (relocation && relocation.step !== "done" && Date.now() < until) {
        const next = await this.advance(relocation);
        if (next === "wait") break;
        relocation = { ...next, error: null, attempts: 0 };
        this.save(relocation);
      }
    } catch (error) {
      if (!relocation) return;
      relocation = { ...relocation, error: errorText(error).slice(0, 500), attempts: relocation.attempts + 1 };
      this.save(relocation);
      await this.ctx.storage.setAlarm(Date.now() + Math.min(1_000 * 2 ** relocation.attempts, 60_000));
      return;
    }
    if (relocation && relocation.step !== "done") await this.ctx.storage.setAlarm(this.nextRunAt(relocation));
  }

  /** A point where a test can put a fault (the production object has none). */
  protected checkpoint(_where: string): void {}

  /** One unit of the relocation's current step; answers the relocation after it ("wait": not yet, the alarm comes back). */
  private async advance(relocation: RelocationRecord): Promise<RelocationRecord | "wait"> {
    const from = shardDatabase(this.env, relocation.from);
    const to = shardDatabase(this.env, relocation.to);
    const id = relocation.businessId;
    this.checkpoint(relocation.step);
    switch (relocation.step) {
      case "hold":
        // Keyed writes answer 503 from now on; reads go on from the old shard.
        await from.prepare("UPDATE businesses SET move_state = 'leaving' WHERE id = ?").bind(id).run();
        return { ...relocation, step: "grace", heldAt: new Date().toISOString() };
      case "grace":
        return Date.now() < this.nextRunAt(relocation) ? "wait" : { ...relocation, step: "seal", part: 0, cursor: "" };
      case "seal":
      case "release":
        return this.calendars(relocation);
      case "copy": {
        const table = RELOCATED_TABLES[relocation.part];
        if (!table) return { ...relocation, step: "switch", part: 0, cursor: 0 };
        const after = await copyPage(from, to, table, id, relocation.cursor as number, { move_state: "arriving" });
        this.checkpoint("copy:written");
        return after === null
          ? { ...relocation, part: relocation.part + 1, cursor: 0 }
          : { ...relocation, cursor: after };
      }
      case "switch":
        await this.switchShards(relocation, from, to);
        return { ...relocation, step: "release", part: 0, cursor: "" };
      case "delete": {
        const table = DELETED_TABLES[relocation.part];
        if (!table) return { ...relocation, step: "done", finishedAt: new Date().toISOString() };
        const after = await deletePage(from, table, id, relocation.cursor as number);
        this.checkpoint("delete:written");
        return after === null
          ? { ...relocation, part: relocation.part + 1, cursor: 0 }
          : { ...relocation, cursor: after };
      }
      case "done":
        return relocation;
    }
  }

  /**
   * The directory names the new shard first; then the old shard's row becomes the forwarding row
   * (naming the new shard, keeping no slug: a page of another business may take it there), then the
   * new shard's row stops arriving. At every moment at most one shard answers for the business.
   */
  private async switchShards(relocation: RelocationRecord, from: D1Database, to: D1Database): Promise<void> {
    const id = relocation.businessId;
    await directoryOf(this.env).prepare("UPDATE businesses SET shard = ? WHERE id = ?").bind(relocation.to, id).run();
    this.checkpoint("switch:directory");
    // A shard that is the directory's own database (docs/operations.md, "Shards") has that row already.
    const old = await from.prepare("SELECT shard FROM businesses WHERE id = ?").bind(id).first<{ shard: number }>();
    if (old && old.shard !== relocation.to) {
      await from
        .prepare("UPDATE businesses SET shard = ?, move_state = NULL, slug = NULL WHERE id = ?")
        .bind(relocation.to, id)
        .run();
    } else await from.prepare("UPDATE businesses SET move_state = NULL WHERE id = ?").bind(id).run();
    this.checkpoint("switch:old");
    await to.prepare("UPDATE businesses SET shard = ?, move_state = NULL WHERE id = ?").bind(relocation.to, id).run();
  }

  /** Holds (seal) or releases (release) one page of the business's calendar objects. */
  private async calendars(relocation: RelocationRecord): Promise<RelocationRecord> {
    const kind = CALENDAR_KINDS[relocation.part] as CalendarKind | undefined;
    if (!kind) {
      return relocation.step === "seal"
        ? { ...relocation, step: "copy", part: 0, cursor: 0 }
        : { ...relocation, step: "delete", part: 0, cursor: 0, releasedAt: new Date().toISOString() };
    }
    const page = await calendarsPage(
      this.env,
      shardDatabase(this.env, relocation.from),
      kind,
      relocation.businessId,
      relocation.cursor as string,
    );
    await Promise.all(
      page.stubs.map((stub) =>
        relocation.step === "seal" ? stub.holdForRelocation() : stub.resumeOn(relocation.to, relocation.from),
      ),
    );
    this.checkpoint(`${relocation.step}:page`);
    return page.last === null
      ? { ...relocation, part: relocation.part + 1, cursor: "" }
      : { ...relocation, cursor: page.last };
  }

  /** When the alarm should next run: at the end of the grace period while in it, else now. */
  private nextRunAt(relocation: RelocationRecord): number {
    if (relocation.step !== "grace" || !relocation.heldAt) return Date.now();
    return Date.parse(relocation.heldAt) + relocation.graceSeconds * 1_000;
  }

  private save(relocation: RelocationRecord): void {
    this.ctx.storage.kv.put(KEY, relocation);
  }
}
