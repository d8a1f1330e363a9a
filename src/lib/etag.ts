/**
 * Entity tags for single resources (RFC 9110 §8.8.3, §13.1): strong tags made from a change
 * marker that moves on every write (a booking's version, a service's or customer's updatedAt).
 */
import type { Context } from "hono";
import { ApiError } from "./api-error";

/** The ETag of a resource whose last change is `marker`. */
export function etagOf(marker: string | number): string {
  return `"${typeof marker === "number" ? `v${marker}` : Date.parse(marker).toString(36)}"`;
}

/**
 * A booking's ETag: its version, and when it has open conflicts a digest of them (they change
 * without the version moving, and a cached copy must not hide them); `If-Match` reads the version.
 */
export function bookingEtag(version: number, conflicts: readonly object[]): string {
  if (conflicts.length === 0) return etagOf(version);
  let hash = 0x811c9dc5;
  for (const char of JSON.stringify(conflicts)) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return `"v${version}.c${hash.toString(36)}"`;
}

function listed(header: string): string[] {
  return header.split(",").map((t) => t.trim().replace(/^W\//, ""));
}

/** Whether `If-None-Match` already names this tag (weak comparison): the client may answer 304. */
function notModified(c: Context, etag: string): boolean {
  const header = c.req.header("If-None-Match");
  return header !== undefined && (header.trim() === "*" || listed(header).includes(etag));
}

/**
 * Answers a conditional GET: sets `ETag`, then 304 when `If-None-Match` names it, else the body.
 * A 304 carries no body, so the client keeps the copy it has.
 */
export function respondConditionally<T>(c: Context, etag: string, body: () => T) {
  c.header("ETag", etag);
  return notModified(c, etag) ? c.body(null, 304) : c.json(body(), 200);
}

/** As `respondConditionally`, for a text body of another media type (an iCalendar file). */
export function respondConditionallyText(c: Context, etag: string, contentType: string, body: string) {
  c.header("ETag", etag);
  return notModified(c, etag) ? c.body(null, 304) : c.body(body, 200, { "Content-Type": contentType });
}

/** The tags `If-Match` lists, or undefined when it is absent or `*` (any current version). */
export function ifMatchTags(c: Context): string[] | undefined {
  const header = c.req.header("If-Match")?.trim();
  if (!header || header === "*") return undefined;
  return header.split(",").map((t) => t.trim());
}

/** Throws 412 unless the `If-Match` tags are absent (no header, or `*`) or name this tag (strong comparison). */
export function assertIfMatch(tags: string[] | undefined, etag: string): void {
  if (tags && !tags.includes(etag)) {
    throw new ApiError("precondition_failed", "The resource changed since the ETag you sent; fetch it again.", {
      headers: { ETag: etag },
    });
  }
}

/** The booking versions `If-Match` names (any may match); tags naming none can never match (412). */
export function ifMatchVersions(c: Context): number[] | undefined {
  const tags = ifMatchTags(c);
  if (tags === undefined) return undefined;
  const versions = tags.flatMap((tag) => {
    // A booking's tag may name its open conflicts after the version (`"v3.c1x2y"`): the version decides.
    const version = /^"v(\d{1,9})(?:\.c[0-9a-z]{1,13})?"$/.exec(tag)?.[1];
    return version === undefined ? [] : [Number(version)];
  });
  if (versions.length === 0) {
    throw new ApiError("precondition_failed", "If-Match does not name a current ETag of this booking.");
  }
  return versions;
}
