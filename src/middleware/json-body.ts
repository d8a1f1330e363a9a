import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/api-error";
import { jsonMediaTypeRefusal } from "./media-type";

/** Some clients send `Content-Type: application/json` on a bodiless POST: read that as `{}`. */
export const emptyBodyAsObject = createMiddleware(async (c, next) => {
  if (c.req.header("Content-Type") && (await c.req.raw.clone().text()).trim() === "") {
    c.req.raw = new Request(c.req.raw, { body: "{}" });
  }
  await next();
});

/** The methods whose bodies the API reads. A body sent with GET or DELETE is not read. */
const bodyMethods = new Set(["POST", "PATCH", "PUT"]);

/**
 * Refuses bytes that are not UTF-8 instead of replacing them with U+FFFD. `ignoreBOM: false`
 * takes one leading byte order mark off, as the body's parser does: RFC 8259 lets a reader ignore it.
 */
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * A request body is JSON text in UTF-8 (RFC 8259 §8.1), checked here for every POST, PATCH and
 * PUT (mounted on each group of routes, src/app.ts, /mcp and /internal), after the caller's key
 * and before any validator reads it (which would decode it
 * leniently and take any `+json` type or charset): another media type or a charset other than
 * utf-8 is a 415, bytes that are not UTF-8 a 400 `malformed_json`. Nothing is parsed or stored
 * then. An accepted body goes on labelled plainly `application/json`: the validators' own pattern
 * would refuse some spellings this accepts (`application/json ; charset=utf-8`, a quoted `;`).
 * An empty body is no body: it is not checked.
 */
export const jsonBody = createMiddleware<AppEnv>(async (c, next) => {
  if (!bodyMethods.has(c.req.method) || !c.req.raw.body) return next();
  // The body limit (src/middleware/body-limit.ts) has buffered it already: at most 64 KiB.
  const bytes = await c.req.raw.clone().arrayBuffer();
  if (bytes.byteLength === 0) return next();
  const refusal = jsonMediaTypeRefusal(c.req.header("Content-Type"));
  if (refusal) throw new ApiError("unsupported_media_type", refusal);
  try {
    utf8.decode(bytes);
  } catch {
    throw new ApiError("malformed_json", "The request body is not valid UTF-8.");
  }
  const headers = new Headers(c.req.raw.headers);
  headers.set("Content-Type", "application/json");
  c.req.raw = new Request(c.req.raw, { headers });
  await next();
});
