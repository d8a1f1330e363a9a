import { everyShard, tenantEnv } from "./shards";

/** Runs `pass` for every shard in turn, with that shard's tenant env; answers each one's result. */
export async function onEveryShard<T>(env: Env, pass: (tenant: Env, shard: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (const shard of everyShard(env)) results.push(await pass(tenantEnv(env, shard), shard));
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
 * A queue batch's messages by the shard each names (the tenant env that sent it stamped it:
 * `tenantEnv`); one sent before there were shards is shard 0's.
 */
export function batchesByShard<Body extends { shard?: number }>(
  batch: MessageBatch<Body>,
): Map<number, MessageBatch<Body>> {
  const parts = new Map<number, Message<Body>[]>();
  for (const message of batch.messages) {
    const shard = message.body.shard ?? 0;
    parts.set(shard, [...(parts.get(shard) ?? []), message]);
  }
  // The consumers read a batch's messages only; each message acks and retries itself.
  return new Map(
    [...parts].map(([shard, messages]) => [shard, { ...batch, messages } as unknown as MessageBatch<Body>]),
  );
}
