import type { Context } from "hono";

/**
 * The line a page shows after a change. A form's redirect names what it did in `?done=` (as
 * `?done=saved`) and the page's words say it; a name the words do not have shows nothing.
 */
export function flashOf<K extends string>(c: Context, lines: Readonly<Record<K, string>>): string | undefined {
  const done = c.req.query("done");
  return done !== undefined && Object.hasOwn(lines, done) ? lines[done as K] : undefined;
}
