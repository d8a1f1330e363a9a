import { probeShards } from "./probe";
import { businessEnv, everyShard, shardDatabase } from "./shards";

/** Runs `pass` for every shard in turn, with that shard's business env; answers each one's result. */
export async function onEveryShard<T>(env: Env, pass: (tenant: Env, shard: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (const shard of everyShard(env)) results.push(await pass(businessEnv(env, shard), shard));
  return results;
}

/**
 * One report of several shards' reports of the same shape: numbers are added, lists joined,
 * flags true only when every shard's is (`consistent`).
 */
export function mergeReports<T extends object>(reports: T[]): T {
  const [first, ...rest] = reports;
  if (!first) throw new Error("No shard to report on.");
  const merged = { ...first } as Record<string, unknown>;
  for (const report of rest) {
    for (const [key, value] of Object.entries(report)) {
      const held = merged[key];
      if (typeof value === "number") merged[key] = (held as number) + value;
      else if (Array.isArray(value)) merged[key] = [...(held as unknown[]), ...value];
      else if (typeof value === "boolean") merged[key] = (held as boolean) && value;
    }
  }
  return merged as T;
}

/**
 * A queue batch's messages by the shard their event is on: the shard each names (the business env
 * that sent it stamped it: `businessEnv`; none, sent before there were shards: shard 0), unless its
 * business has moved since and the event with it. One read per shard named finds the events that
 * are not there any more; each of those is looked for on every shard (src/shards/probe.ts).
 */
export async function batchesByShard<Body extends { shard?: number; eventId: string }>(
  env: Env,
  batch: MessageBatch<Body>,
): Promise<Map<number, MessageBatch<Body>>> {
  const named = Map.groupBy(batch.messages, (message) => message.body.shard ?? 0);
  const parts = new Map<number, Message<Body>[]>();
  const add = (shard: number, message: Message<Body>) => parts.set(shard, [...(parts.get(shard) ?? []), message]);
  for (const [shard, messages] of named) {
    const here = await eventsOn(
      env,
      shard,
      messages.map((message) => message.body.eventId),
    );
    for (const message of messages) {
      const home = here.has(message.body.eventId)
        ? shard
        : ((await probeShards(env, "webhook_events", "id", message.body.eventId)) ?? shard);
      add(home, message);
    }
  }
  // The consumers read a batch's messages only; each message acks and retries itself.
  return new Map(
    [...parts].map(([shard, messages]) => [shard, { ...batch, messages } as unknown as MessageBatch<Body>]),
  );
}

/** Which of `ids` are events on `shard` (a queue batch holds at most 100 messages; D1 binds up to 100 values). */
async function eventsOn(env: Env, shard: number, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let at = 0; at < ids.length; at += 90) {
    const some = [...new Set(ids.slice(at, at + 90))];
    const { results } = await shardDatabase(env, shard)
      .prepare(`SELECT id FROM webhook_events WHERE id IN (${some.map(() => "?").join(", ")})`)
      .bind(...some)
      .all<{ id: string }>();
    for (const row of results) found.add(row.id);
  }
  return found;
}
