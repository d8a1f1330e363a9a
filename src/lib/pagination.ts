import { z } from "@hono/zod-openapi";
import type { Context } from "hono";

/** `page` (≥ 1, default 1) and `limit` (1–100, default 20), shared by every list. */
export const paginationQuery = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1).openapi({ description: "Page number, from 1." }),
  limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: "Items per page, 1 to 100." }),
};

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

/** Row offset of a page. */
export const offsetOf = ({ page, limit }: PageRequest) => (page - 1) * limit;

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
  const links = [link("first", 1)];
  if (page > 1) links.push(link("prev", Math.min(page - 1, totalPages)));
  if (page < totalPages) links.push(link("next", page + 1));
  links.push(link("last", totalPages));
  c.header("Link", links.join(", "));
  return { data, pagination: { page, limit, total, totalPages, hasMore: page < totalPages } };
}
