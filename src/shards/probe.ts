import { everyShard, shardDatabase } from "./shards";

/**
 * The shard on which a row of `table` has `column` = `value` and belongs to a business at home
 * there, asking every shard at once; undefined when none has one. For the public addresses whose
 * token names a row but not its business (a feed, a customer's manage link): one small read per
 * shard, in one round of time. A moving business's rows are found on its old shard until the
 * directory switches, then on its new one only (a moved business's forwarding row names the other
 * shard, an arriving one says so), so a row is never found on two shards at once.
 */
export async function probeShards(
  env: Env,
  table: string,
  column: string,
  value: unknown,
): Promise<number | undefined> {
  const shards = everyShard(env);
  const found = await Promise.all(
    shards.map((shard) =>
      shardDatabase(env, shard)
        .prepare(
          `SELECT 1 FROM ${table} t JOIN businesses b ON b.id = t.business_id
           WHERE t.${column} = ? AND b.shard = ? AND b.move_state IS NOT 'arriving' LIMIT 1`,
        )
        .bind(value, shard)
        .first(),
    ),
  );
  const at = found.findIndex((row) => row !== null);
  return at < 0 ? undefined : shards[at];
}
