/**
 * The declarative list of deprecated operations (docs/api-behaviour.md, "Versioning and
 * deprecation"). An entry makes every answer of that operation carry `Deprecation` (RFC 9745),
 * `Sunset` once a removal date is set (RFC 8594) and `Link`s to the notice, and marks the
 * operation `deprecated` in the OpenAPI document. Nothing in v1 is deprecated yet.
 */
export type DeprecatedOperation = {
  method: "get" | "post" | "patch" | "put" | "delete";
  /** The document's path template, relative to /api/v1: `/services/{id}`. */
  path: string;
  /** When the operation was deprecated (RFC 3339). */
  deprecatedAt: string;
  /** When it may stop working (RFC 3339), at least six months after `deprecatedAt`; omitted while not fixed. */
  sunsetAt?: string;
  /** Where the deprecation is explained and the replacement named. */
  notice: string;
};

export const deprecatedOperations: readonly DeprecatedOperation[] = [];

/** Hono's route pattern for a document path: `/api/v1/services/:id` for `/services/{id}`. */
export function routePattern(basePath: string, path: string): string {
  return basePath + path.replace(/\{(\w+)\}/g, ":$1");
}

type PathItems = Record<string, Record<string, { deprecated?: boolean } | undefined> | undefined>;

/** Sets `deprecated: true` on each listed operation of an OpenAPI document. */
export function markDeprecated<D extends { paths?: unknown }>(
  document: D,
  operations: readonly DeprecatedOperation[],
): D {
  const paths = (document.paths ?? {}) as PathItems;
  for (const o of operations) {
    const operation = paths[o.path]?.[o.method];
    if (operation) operation.deprecated = true;
  }
  return document;
}
