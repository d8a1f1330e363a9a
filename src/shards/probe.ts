import { everyShard, isShard, shardDatabase } from "./shards";

/** Where this isolate last found a probed row (at most 1,000 rows): the next probe asks that shard alone first. */
const MAX_REMEMBERED = 1_000;
const foundOn = new Map<string, number>();

/** Whether `shard` has the row, for a business at home there (see `probeShards`). */
async function hasRow(env: Env, shard: number, table: string, column: string, value: unknown): Promise<boolean> {
  const row = await shardDatabase(env, shard)
    .prepare(
      `SELECT 1 FROM ${table} t JOIN businesses b ON b.id = t.business_id
       WHERE t.${column} = ? AND b.shard = ? AND b.move_state IS NOT 'arriving' LIMIT 1`,
    )
    .bind(value, shard)
    .first();
  return row !== null;
}

/**
 * The shard on which a row of `table` has `column` = `value` and belongs to a business at home
 * there; undefined when none has one. For the public addresses whose token names a row but not
 * its business (a feed, a customer's manage link). A feed reader polls the same address again
 * and again: the shard it was found on is remembered per isolate and asked alone first, and
 * only a row not found there (never seen, or its business moved) is asked of every shard, in
 * one round of time. A moving business's rows are found on its old shard until the directory
 * switches, then on its new one only (a moved business's forwarding row names the other shard,
 * an arriving one says so), so a row is never found on two shards at once.
 */
export async function probeShards(
  env: Env,
  table: string,
  column: string,
  value: unknown,
): Promise<number | undefined> {
  const key = `${table}.${column}=${String(value)}`;
  const known = foundOn.get(key);
  if (known !== undefined && isShard(env, known)) {
    if (await hasRow(env, known, table, column, value)) return known;
    foundOn.delete(key);
  }
  const shards = everyShard(env).filter((shard) => shard !== known);
  const found = await Promise.all(shards.map((shard) => hasRow(env, shard, table, column, value)));
  const at = shards[found.indexOf(true)];
  if (at === undefined) return undefined;
  if (foundOn.size >= MAX_REMEMBERED) foundOn.delete(foundOn.keys().next().value as string);
  foundOn.set(key, at);
  return at;
}
