import { DrizzleD1Database as D1Handle, type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import { SQLiteD1Session } from "drizzle-orm/d1/session";
import * as schema from "./schema";

export type Database = DrizzleD1Database<typeof schema>;

/**
 * One Drizzle handle per D1 binding, kept for the isolate's life: building one maps the whole
 * schema's relational config, which showed in every request's CPU profile (docs/performance.md,
 * "Where the time goes (CPU profiles)"). Keyed weakly by the binding, so the cache holds at most
 * one entry per live binding object.
 */
const handles = new WeakMap<D1Database, Database>();

/** A request's handle over a D1 session → the binding's handle it was made from. */
const roots = new WeakMap<Database, Database>();

/** The Drizzle handle over a D1 binding, built once per binding. */
export function createDb(d1: D1Database): Database {
  let handle = handles.get(d1);
  if (!handle) {
    handle = drizzle(d1, { schema });
    handles.set(d1, handle);
  }
  return handle;
}

/**
 * A Drizzle handle whose statements go through `session` (a write request's, on the primary), so
 * the session's bookmark covers what the request writes. Built per request from the binding's
 * handle: its dialect and mapped schema are reused, so what is built is a session object and one
 * small query builder per table, not the schema's mapping.
 */
export function sessionDb(session: D1DatabaseSession, binding: D1Database): Database {
  const root = createDb(binding) as unknown as {
    dialect: ConstructorParameters<typeof SQLiteD1Session>[1];
    session: { schema: ConstructorParameters<typeof SQLiteD1Session>[2] };
  };
  const schemaConfig = root.session.schema;
  const over = new SQLiteD1Session(session as unknown as D1Database, root.dialect, schemaConfig, {});
  const handle = new D1Handle("async", root.dialect, over, schemaConfig) as unknown as Database;
  roots.set(handle, root as unknown as Database);
  return handle;
}

/**
 * The handle queries are prepared on once per isolate (src/db/prepared.ts): the binding's, also
 * for a request's handle over a session, whose life is the request's.
 */
export const rootDb = (db: Database): Database => roots.get(db) ?? db;
