import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Database = DrizzleD1Database<typeof schema>;

/**
 * One Drizzle handle per D1 binding, kept for the isolate's life: building one maps the whole
 * schema's relational config, which showed in every request's CPU profile (docs/performance.md,
 * "Where the time goes (CPU profiles)"). Keyed weakly by the binding, so the cache holds at most
 * one entry per live binding object.
 */
const handles = new WeakMap<D1Database, Database>();

/** The Drizzle handle over a D1 binding, built once per binding. */
export function createDb(d1: D1Database): Database {
  let handle = handles.get(d1);
  if (!handle) {
    handle = drizzle(d1, { schema });
    handles.set(d1, handle);
  }
  return handle;
}
