import type { Context } from "hono";
import { ApiError } from "../lib/api-error";
import { z } from "../lib/zod";

/**
 * The most rows a page may skip: SQLite walks every skipped row, so `(page − 1) × limit` is
 * bounded and deeper reads narrow the list with its filters instead.
 */
export const MAX_OFFSET = 10_000;

/** The deepest page a list serves at this `limit`. */
export const deepestPage = (limit: number) => Math.floor(MAX_OFFSET / limit) + 1;

/** `page` (≥ 1, default 1) and `limit` (1–100, default 20), shared by every list. */
export const paginationQuery = {
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(1)
    .openapi({
      description: `Page number, from 1. A page may skip at most ${MAX_OFFSET.toLocaleString("en-US")} items: (page − 1) × limit ≤ ${MAX_OFFSET}, else 422 \`validation_failed\` on \`page\` (e.g. page ≤ 101 at limit 100). Narrow the list with its filters to reach older items.`,
    }),
  limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: "Items per page, 1 to 100." }),
};

/**
 * The rules every list shares that the parameter schemas cannot say on their own, for the list
 * operations' descriptions.
 */
export const listRules =
  "Pages: `page` from 1, `limit` 1 to 100; a page past the end is an empty `data` with the real `total`, and `Link` carries first, prev, next and last. A page may skip at most 10,000 items (`(page − 1) × limit` ≤ 10,000; deeper is a 422 on `page` naming the deepest one): narrow the list with its filters to reach further. An unknown or repeated query parameter is a 422.";

export type PageRequest = { page: number; limit: number };

export const PaginationSchema = z
  .object({
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
    hasMore: z.boolean(),
  })
  .openapi("Pagination");

/** The list envelope schema for items of `item`. */
export function listOf<T extends z.ZodType>(item: T, name: string) {
  return z.object({ data: z.array(item), pagination: PaginationSchema }).openapi(name);
}

/**
 * Row offset of a page, or a 422 on `page` when it would skip more than MAX_OFFSET rows.
 * `narrowing` names the list's filters that reach further back (e.g. "from and to").
 */
export function offsetOf({ page, limit }: PageRequest, narrowing?: string): number {
  const offset = (page - 1) * limit;
  if (offset <= MAX_OFFSET) return offset;
  const deepest = deepestPage(limit);
  const hint = narrowing ? ` Narrow the list with ${narrowing} to reach further.` : "";
  throw new ApiError(
    "validation_failed",
    `A page may skip at most ${MAX_OFFSET} items; page ${page} at limit ${limit} would skip ${offset}. Use page ≤ ${deepest} at this limit.${hint}`,
    { errors: [{ path: "page", message: `Must be at most ${deepest} when limit is ${limit}.` }] },
  );
}

/**
 * Builds the list envelope and sets the RFC 8288 `Link` header (first, prev, next, last),
 * keeping every other query parameter of the request.
 */
export function paginate<T>(c: Context, data: T[], total: number, { page, limit }: PageRequest) {
  const totalPages = Math.max(1, Math.ceil(total / limit));
  const link = (rel: string, target: number) => {
    const url = new URL(c.req.url);
    url.searchParams.set("page", String(target));
    url.searchParams.set("limit", String(limit));
    return `<${url.pathname}${url.search}>; rel="${rel}"`;
  };
  // Links only lead to pages the list serves: `last` stops at the deepest page.
  const reachable = Math.min(totalPages, deepestPage(limit));
  const links = [link("first", 1)];
  if (page > 1) links.push(link("prev", Math.min(page - 1, reachable)));
  if (page < reachable) links.push(link("next", page + 1));
  links.push(link("last", reachable));
  c.header("Link", links.join(", "));
  return { data, pagination: { page, limit, total, totalPages, hasMore: page < totalPages } };
}
