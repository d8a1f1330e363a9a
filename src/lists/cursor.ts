/**
 * Keyset pagination: opaque `after`/`before` cursors (base64url of a list's sort key and id) that
 * seek in the list's index instead of skipping rows, beside `page`/`limit`. A cursor names a
 * position between rows, not a row number, so rows added or removed elsewhere do not shift the
 * pages after it.
 */
import type { Context } from "hono";
import { ApiError } from "../lib/api-error";
import { base64url } from "../lib/crypto";
import { z } from "../lib/zod";
import { deepestPage, type PageRequest } from "./pagination";

/** A cursor is at most this long: a sort key and an id, base64url-encoded. */
const MAX_CURSOR = 256;

const cursorParam = (direction: "after" | "before", example?: string) =>
  z
    .string()
    .min(1)
    .max(MAX_CURSOR)
    .regex(/^[A-Za-z0-9_-]+$/, "Must be a cursor from a list's pagination or Link header.")
    .optional()
    .openapi({
      description:
        direction === "after"
          ? "Items after this position in the list's order (for a list newest first, older ones): the `nextCursor` of a page, or its `Link` `next`. Opaque; not with `before` or a `page` other than 1. Seeks in the index: the same cost at any depth, and stable when items are added."
          : "Items before this position in the list's order (for a list newest first, newer ones): the `prevCursor` of a page, or its `Link` `prev`. Opaque; not with `after` or a `page` other than 1. Its example is `after`'s: the two are never sent together.",
      ...(example === undefined ? {} : { example }),
    });

/**
 * The `after` and `before` query parameters of a list with cursors; `exampleKey` is the sort key
 * of an item (id last), whose cursor is `after`'s example. `before` shows none: a request with
 * both is a 422, and the document's examples are sent together.
 */
export const cursorQuery = (exampleKey: string[]) => ({
  after: cursorParam("after", cursorOf(exampleKey)),
  before: cursorParam("before"),
});

export type CursorRequest = PageRequest & { after?: string; before?: string };

/** Where a page starts: skipping rows (`page`), or seeking past a cursor's key in either direction. */
export type Position = { kind: "page" } | { kind: "after" | "before"; key: string[] };

/** What the rules of a list with cursors add to `listRules`, for its description. */
export const cursorRules =
  "Cursors: every page's `pagination` carries `nextCursor` and `prevCursor` (null at an end); `after=<nextCursor>` reads the next page and `before=<prevCursor>` the previous one, each in one index seek whatever the depth, and `Link` then carries first, prev and next as cursors. A cursor page's `pagination.page` is null. A cursor that was not issued by this list is a 422 on `after` or `before`.";

const encode = (parts: string[]) => base64url(new TextEncoder().encode(JSON.stringify(parts)));

/** The cursor of a row whose sort key (last part: its id) is `key`. */
export const cursorOf = (key: string[]): string => encode(key);

/**
 * The position a request asks for. `parts` checks a decoded cursor's key, one pattern per part
 * (the sort key's columns, id last); any other cursor is a 422 on the parameter that carried it.
 */
export function positionOf(request: CursorRequest, parts: RegExp[]): Position {
  const { after, before, page } = request;
  if (after === undefined && before === undefined) return { kind: "page" };
  const invalid = (path: string, message: string) =>
    new ApiError("validation_failed", "The query string is invalid.", { errors: [{ path, message }] });
  if (after !== undefined && before !== undefined) throw invalid("before", "Give after or before, not both.");
  if (page !== 1) throw invalid("page", "A cursor page has no page number; leave page out with after or before.");
  const kind = after !== undefined ? "after" : "before";
  const key = decode((after ?? before) as string);
  if (!key || key.length !== parts.length || !key.every((part, i) => (parts[i] as RegExp).test(part))) {
    throw invalid(kind, "Not a cursor of this list; use nextCursor or prevCursor of one of its pages.");
  }
  return { kind, key };
}

function decode(cursor: string): string[] | undefined {
  try {
    const binary = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const parsed: unknown = JSON.parse(
      new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(toBytes(binary)),
    );
    if (Array.isArray(parsed) && parsed.every((part) => typeof part === "string" && part.length <= 64)) return parsed;
  } catch {}
  return undefined;
}

const toBytes = (binary: string) => Uint8Array.from(binary, (char) => char.charCodeAt(0));

// One object of its own, not an extension of Pagination: OpenAPI would render an extension as
// allOf, and `page` cannot be both Pagination's integer and null.
export const CursorPaginationSchema = z
  .object({
    page: z.number().int().nullable().openapi({ description: "The page number; null on a page reached by a cursor." }),
    limit: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
    hasMore: z.boolean().openapi({ description: "Whether items follow this page in the list's order." }),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: "`after` for the next page; null when there is none.", example: "WyIyMDI2In0" }),
    prevCursor: z
      .string()
      .nullable()
      .openapi({ description: "`before` for the previous page; null on the first page.", example: null }),
  })
  .openapi("CursorPagination");

/** The list envelope of a list with cursors, for items of `item`. */
export function cursorListOf<T extends z.ZodType>(item: T, name: string) {
  return z.object({ data: z.array(item), pagination: CursorPaginationSchema }).openapi(name);
}

/** A page as a list with cursors reads it: its items in list order and where it stands. */
export type ListPage<T> = {
  items: T[];
  hasNext: boolean;
  hasPrev: boolean;
  position: Position;
  total: number;
  /** An item's sort key, id last: what its cursor encodes. */
  keyOf: (item: T) => string[];
};

/**
 * The page read at `position` (for `before`, read in ascending order) with one row more than
 * `limit` when there is one: its rows in list order, and whether rows follow it and precede it.
 */
export function pageAt<T>(rows: T[], position: Position, { page, limit }: PageRequest, total: number) {
  if (position.kind === "page") {
    return { rows, hasNext: page * limit < total, hasPrev: page > 1 && rows.length > 0 };
  }
  const extra = rows.length > limit;
  const kept = rows.slice(0, limit);
  // A cursor came from a page next to it, so the way back has rows whenever this page has any.
  if (position.kind === "after") return { rows: kept, hasNext: extra, hasPrev: kept.length > 0 };
  return { rows: kept.reverse(), hasNext: kept.length > 0, hasPrev: extra };
}

/**
 * Builds a cursor list's envelope and its RFC 8288 `Link` header. A page reached by number links
 * pages by number (first, prev, next, last), as every list does; a page reached by a cursor links
 * first and, by cursor, prev and next. Either way the envelope carries both cursors.
 */
export function paginateByCursor<T>(c: Context, list: ListPage<T>, request: PageRequest) {
  const { items, hasNext, hasPrev, position, total, keyOf } = list;
  const first = items[0];
  const last = items.at(-1);
  const nextCursor = hasNext && last !== undefined ? cursorOf(keyOf(last)) : null;
  const prevCursor = hasPrev && first !== undefined ? cursorOf(keyOf(first)) : null;
  const { page, limit } = request;
  const totalPages = Math.max(1, Math.ceil(total / limit));
  const link = (rel: string, set: Record<string, string>) => {
    const url = new URL(c.req.url);
    // A page number replaces the one asked for in place; a cursor replaces the page number.
    for (const name of ["after", "before", ...("page" in set ? [] : ["page"])]) url.searchParams.delete(name);
    for (const [name, value] of Object.entries({ ...set, limit: String(limit) })) url.searchParams.set(name, value);
    return `<${url.pathname}${url.search}>; rel="${rel}"`;
  };
  const links = [link("first", { page: "1" })];
  if (position.kind === "page") {
    const reachable = Math.min(totalPages, deepestPage(limit));
    if (page > 1) links.push(link("prev", { page: String(Math.min(page - 1, reachable)) }));
    if (page < reachable) links.push(link("next", { page: String(page + 1) }));
    links.push(link("last", { page: String(reachable) }));
  } else {
    if (prevCursor) links.push(link("prev", { before: prevCursor }));
    if (nextCursor) links.push(link("next", { after: nextCursor }));
  }
  c.header("Link", links.join(", "));
  return {
    data: items,
    pagination: {
      page: position.kind === "page" ? page : null,
      limit,
      total,
      totalPages,
      hasMore: hasNext,
      nextCursor,
      prevCursor,
    },
  };
}
