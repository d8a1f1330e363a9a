/**
 * Tenant shards. The directory (binding `DB`) holds every business with the number of its shard,
 * and every API key; a business's own records live on its shard (binding `DB_<n>`). Work done for
 * one tenant runs with the tenant's env (`businessEnv`): the same bindings, except that `DB` is the
 * tenant's shard, the calendar objects it reaches are told the shard with every call (so they
 * write behind to it, src/shards/object-shard.ts), and the queue messages it sends carry it.
 * Code inside a tenant's work keeps writing `env.DB`; only the directory's few readers
 * (`directoryOf`) and the passes over every shard (`everyShard`) name shards at all.
 */

import type { CalendarBookmarks, WithBookmark } from "../db/bookmarks";

/** At most this many shard bindings are looked for (`DB_0` … `DB_63`). */
const MAX_SHARDS = 64;

/** What a business env carries beyond the Worker's bindings. */
type BusinessEnvParts = { DIRECTORY: D1Database; SHARD: number; ROOT: Env };

/** The shard bindings this Worker has: `DB_0`, `DB_1`, … up to the first gap. */
export function shardCount(env: Env): number {
  const root = rootOf(env) as unknown as Record<string, unknown>;
  let n = 0;
  while (n < MAX_SHARDS && root[`DB_${n}`] !== undefined) n++;
  return n;
}

/** Every shard's number, in order. */
export const everyShard = (env: Env): number[] => Array.from({ length: shardCount(env) }, (_, n) => n);

/** Whether `shard` names a binding this Worker has. */
export const isShard = (env: Env, shard: unknown): shard is number =>
  Number.isInteger(shard) && (shard as number) >= 0 && (shard as number) < shardCount(env);

/** The D1 binding of shard `n`. */
export function shardDatabase(env: Env, shard: number): D1Database {
  const database = (rootOf(env) as unknown as Record<string, D1Database | undefined>)[`DB_${shard}`];
  if (!database) throw new Error(`No D1 binding DB_${shard} for shard ${shard}.`);
  return database;
}

/** The directory: businesses (with their shards) and API keys, whatever env this is. */
export const directoryOf = (env: Env): D1Database => (env as Partial<BusinessEnvParts> & Env).DIRECTORY ?? env.DB;

/** The Worker's own env behind a business env (itself when it is not one). */
export const rootOf = (env: Env): Env => (env as Partial<BusinessEnvParts> & Env).ROOT ?? env;

/** The shard a business env is for; undefined for the Worker's own env. */
export const shardOfEnv = (env: Env): number | undefined => (env as Partial<BusinessEnvParts> & Env).SHARD;

const businessEnvs = new WeakMap<Env, Env[]>();

/**
 * The env of work done for a tenant on `shard`: `DB` is the shard, the directory stays reachable
 * (`directoryOf`), calendar stubs carry the shard and queue messages name it. Built once per
 * shard and Worker env.
 */
export function businessEnv(env: Env, shard: number): Env {
  const root = rootOf(env);
  let byShard = businessEnvs.get(root);
  if (!byShard) {
    byShard = [];
    businessEnvs.set(root, byShard);
  }
  let tenant = byShard[shard];
  if (!tenant) {
    const parts: BusinessEnvParts = { DIRECTORY: root.DB, SHARD: shard, ROOT: root };
    tenant = {
      ...root,
      ...parts,
      DB: shardDatabase(root, shard),
      SERVICE_CALENDAR: carrying(root.SERVICE_CALENDAR, shard),
      PROVIDER_CALENDAR: carrying(root.PROVIDER_CALENDAR, shard),
      RESOURCE_CALENDAR: carrying(root.RESOURCE_CALENDAR, shard),
      DELIVERY_QUEUE: stamping(root.DELIVERY_QUEUE, shard),
    } as Env;
    byShard[shard] = tenant;
  }
  return tenant;
}

/**
 * A write request's business env: as `tenant` (on `shard`), but its calendar calls also answer the
 * bookmark of the calendar's D1 writes, which `bookmarks` keeps for the request's answer.
 */
export function bookmarkingEnv(tenant: Env, shard: number, bookmarks: CalendarBookmarks): Env {
  const root = rootOf(tenant);
  return {
    ...tenant,
    SERVICE_CALENDAR: carrying(root.SERVICE_CALENDAR, shard, bookmarks),
    PROVIDER_CALENDAR: carrying(root.PROVIDER_CALENDAR, shard, bookmarks),
    RESOURCE_CALENDAR: carrying(root.RESOURCE_CALENDAR, shard, bookmarks),
  };
}

/** The RPC method of every calendar object that runs a call for a tenant on its shard. */
export const ON_SHARD = "onShard";

/** Properties of a stub that are not RPC methods of the object. */
const stubOwn = new Set(["id", "name", "fetch", "connect", "dup"]);

/**
 * A namespace whose stubs pass the shard with every call: `stub.m(...args)` becomes
 * `stub.onShard(shard, "m", args)`, one RPC as before (src/shards/object-shard.ts answers it).
 * With `bookmarks`, each call asks for the calendar's bookmark too and keeps it there.
 */
function carrying<T extends Rpc.DurableObjectBranded | undefined>(
  namespace: DurableObjectNamespace<T>,
  shard: number,
  bookmarks?: CalendarBookmarks,
): DurableObjectNamespace<T> {
  const wrap = (stub: DurableObjectStub<T>) =>
    new Proxy(stub, {
      get(target, property) {
        // A stub is not a promise: `await stub` must not look for a method named `then`.
        if (property === "then") return undefined;
        if (typeof property !== "string" || stubOwn.has(property)) {
          const value = Reflect.get(target, property, target);
          return typeof value === "function" ? value.bind(target) : value;
        }
        const call = Reflect.get(target, ON_SHARD, target) as (...args: unknown[]) => Promise<unknown>;
        if (!bookmarks) return (...args: unknown[]) => call(shard, property, args);
        return async (...args: unknown[]) => {
          const { value, bookmark } = (await call(shard, property, args, true)) as WithBookmark;
          bookmarks.saw(bookmark);
          return value;
        };
      },
    });
  // What src/calendar/stubs.ts uses of a namespace.
  return {
    idFromName: (name: string) => namespace.idFromName(name),
    get: (id: DurableObjectId, options?: DurableObjectNamespaceGetDurableObjectOptions) =>
      wrap(namespace.get(id, options)),
  } as DurableObjectNamespace<T>;
}

/** A queue whose messages name the shard (the consumer works on it: src/queue.ts). */
function stamping<Body>(queue: Queue<Body>, shard: number): Queue<Body> {
  const stamp = (body: Body) => ({ ...body, shard }) as Body;
  return {
    send: (body: Body, options?: QueueSendOptions) => queue.send(stamp(body), options),
    sendBatch: (messages: Iterable<MessageSendRequest<Body>>, options?: QueueSendBatchOptions) =>
      queue.sendBatch(
        [...messages].map((message) => ({ ...message, body: stamp(message.body) })),
        options,
      ),
  } as Queue<Body>;
}
