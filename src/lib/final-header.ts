import type { Context } from "hono";

/**
 * Sets a header on the answer a handler has already made, from middleware that runs after it.
 * Hono's `c.header()` copies a finished Response before it writes (a `fetch()`'s headers are
 * immutable), which is a second Response for every request; the answers made here are mutable,
 * so the header is written in place and the copy is only the fallback.
 */
export function setFinalHeader(c: Context, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.header(name, value);
  }
}
