/**
 * How a calendar object knows its tenant's shard. Every call a tenant's work makes carries the
 * shard (`onShard`, src/shards/shards.ts); the object keeps the last one it was told in its own
 * storage, so its alarms (write-behind, reconciliation, reminders, offers) reach the shard with
 * no directory lookup. An object never told one (made before shards existed, or reached by a
 * bare stub) works on shard 0, where a deployment that grew from one database keeps its tenants
 * (docs/operations.md, "Shards").
 */
import { tenantEnv } from "./shards";

const KEY = "tenant-shard";

/** The tenant env of an object, from the shard its storage keeps (shard 0 when none). */
export function storedTenantEnv(ctx: DurableObjectState, env: Env): Env {
  return tenantEnv(env, ctx.storage.kv.get<number>(KEY) ?? 0);
}

/** Methods `onShard` never runs: the runtime's own entry points and the dispatcher itself. */
const notCommands = new Set(["constructor", "alarm", "fetch", "onShard", "webSocketMessage", "webSocketClose"]);

/**
 * Keeps `shard` as the object's (stored when it differs: the caller read it from the directory,
 * so it wins, as after a tenant moved); answers the tenant env the object works with from now on.
 */
export function learnShard(ctx: DurableObjectState, env: Env, shard: unknown): Env {
  if (!Number.isInteger(shard) || (shard as number) < 0) throw new TypeError("A shard is a whole number.");
  if (ctx.storage.kv.get<number>(KEY) !== shard) ctx.storage.kv.put(KEY, shard);
  return tenantEnv(env, shard as number);
}

/** The method a call carried by `onShard` names, bound to the object; a TypeError for any other name. */
export function commandOf(object: object, method: unknown): (...args: unknown[]) => unknown {
  const run = typeof method === "string" ? (object as Record<string, unknown>)[method] : undefined;
  if (typeof method !== "string" || notCommands.has(method) || typeof run !== "function") {
    throw new TypeError(`No calendar method ${String(method)}.`);
  }
  return (run as (...args: unknown[]) => unknown).bind(object);
}
