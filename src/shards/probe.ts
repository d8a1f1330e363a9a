import { everyShard, shardDatabase } from "./shards";

/**
 * The shard on which `query` (one statement, `?` placeholders) finds a row, asking every shard at
 * once; undefined when none does. For the public addresses whose token names a row but not its
 * business (a feed, a customer's manage link): one small read per shard, in one round of time.
 */
export async function probeShards(env: Env, query: string, params: unknown[]): Promise<number | undefined> {
  const shards = everyShard(env);
  const found = await Promise.all(
    shards.map((shard) =>
      shardDatabase(env, shard)
        .prepare(query)
        .bind(...params)
        .first(),
    ),
  );
  const at = found.findIndex((row) => row !== null);
  return at < 0 ? undefined : shards[at];
}
