import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Database = DrizzleD1Database<typeof schema>;

/** A Drizzle handle over the D1 binding; cheap enough to build per request. */
export function createDb(d1: D1Database): Database {
  return drizzle(d1, { schema });
}
