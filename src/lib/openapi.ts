import { z } from "@hono/zod-openapi";
import { problemTypes } from "./errors";

export const ProblemSchema = z
  .object({
    type: z.string().openapi({ description: "URI of the problem type; resolve it for a description." }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.enum(Object.keys(problemTypes) as [keyof typeof problemTypes, ...(keyof typeof problemTypes)[]]),
    instance: z.string().openapi({ description: "Path of the request that failed." }),
    requestId: z.string(),
    errors: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .openapi({ description: "Each invalid input, for validation_failed." }),
    reason: z.string().optional().openapi({ description: "Why a slot is unavailable, for slot_unavailable." }),
  })
  .openapi("Problem", { description: "RFC 9457 problem details." });

const problemDescriptions = {
  400: "Malformed JSON.",
  401: "Missing, invalid or revoked API key.",
  404: "No such resource for this business.",
  409: "Conflict with the current state.",
  412: "If-Match names an ETag that is no longer current.",
  413: "Body larger than 64 KiB.",
  415: "Body is not application/json.",
  422: "Invalid input.",
  429: "Rate limit exceeded.",
  500: "Unexpected error.",
  503: "Storage is overloaded or restarting; retry after `Retry-After` seconds.",
} as const;

type ProblemStatus = keyof typeof problemDescriptions;

/** OpenAPI responses for the given problem statuses (plus 401, 429, 500 and 503, which every authenticated route can return). */
export function problemResponses(...statuses: ProblemStatus[]) {
  const all = new Set<ProblemStatus>([...statuses, 401, 429, 500, 503]);
  return Object.fromEntries(
    [...all].sort().map((status) => [
      status,
      {
        description: problemDescriptions[status],
        content: { "application/problem+json": { schema: ProblemSchema } },
      },
    ]),
  ) as Record<
    ProblemStatus,
    { description: string; content: { "application/problem+json": { schema: typeof ProblemSchema } } }
  >;
}

/** Responses for routes with a JSON body: malformed, oversized, wrong media type, invalid. */
export const bodyProblems = [400, 413, 415, 422] as const;

/** Path parameter `{id}` of a resource. */
export const idParam = (example: string) =>
  z.object({
    id: z
      .string()
      .min(1)
      .max(64)
      .openapi({ param: { name: "id", in: "path" }, example }),
  });

/** The optional `Idempotency-Key` request header of unsafe operations. */
export const idempotencyKeyHeader = z.object({
  "idempotency-key": z
    .string()
    .min(1)
    .max(255)
    .optional()
    .openapi({
      // Hono lower-cases header names; HTTP header names are case-insensitive anyway.
      param: { in: "header" },
      description: "Makes a retry safe: the same key and request replay the first response for 24 hours.",
      example: "3f0c9a57-2a0e-4d4e-9a4b-0d5c6f1e7a21",
    }),
});

/** `If-None-Match` on single-resource GETs: a matching ETag answers 304. */
const ifNoneMatchHeader = z.object({
  "if-none-match": z
    .string()
    .optional()
    .openapi({ param: { in: "header" }, description: "ETag of a copy you hold; answers 304 if it is current." }),
});

/** `If-Match` on PATCH: only apply the change if the resource still has this ETag, else 412. */
export const ifMatchHeader = z.object({
  "if-match": z
    .string()
    .optional()
    .openapi({ param: { in: "header" }, description: "ETag the change is based on; a stale one answers 412." }),
});

/** The `ETag` response header. */
export const etagHeader = {
  ETag: { description: "Entity tag of this representation.", schema: { type: "string" as const } },
};

/** The 304 response of a conditional GET. */
const notModifiedResponse = {
  304: { description: "Not modified: the ETag in If-None-Match is current.", headers: etagHeader },
};

/**
 * The request and responses of a conditional single-resource GET: `{id}` and `If-None-Match`
 * in, the resource with its `ETag` (200) or 304 out, plus the usual problems.
 */
export function conditionalGet<T extends z.ZodType>(schema: T, description: string, idExample: string) {
  return {
    request: { params: idParam(idExample), headers: ifNoneMatchHeader },
    responses: {
      200: { description, headers: etagHeader, content: { "application/json": { schema } } },
      ...notModifiedResponse,
      ...problemResponses(404, 422),
    },
  };
}

/** Security requirement for routes that need an API key. */
export const bearerSecurity = [{ bearerAuth: [] }];
