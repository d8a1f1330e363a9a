import { problemTypes } from "../api-error";
import { z } from "../zod";
import { type HeaderName, type HeaderObject, type HeaderRef, problemHeaders, responseHeaders } from "./headers";

export { type HeaderName, registerResponseHeaders, responseHeaders } from "./headers";

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
    reason: z.string().optional().openapi({
      description:
        "Why a slot is unavailable, for slot_unavailable; which timing rule a time broke (`in_the_past`, `too_soon`, `too_far_ahead`, …), for some validation_failed.",
    }),
    segment: z.number().int().optional().openapi({
      description:
        "The visit's segment (0-based) that could not be booked, for slot_unavailable of `POST /appointments`.",
    }),
    conflicts: z
      .array(
        z.looseObject({
          startTime: z.string().optional(),
          reason: z.string().optional(),
          at: z.string().optional(),
          bookingIds: z.array(z.string()).optional(),
          providerId: z.string().nullable().optional(),
        }),
      )
      .optional()
      .openapi({
        description:
          "What conflicts: for bookings_conflict, the upcoming bookings a change would not fit (`at`, `bookingIds`, maybe `providerId`); for slot_unavailable of `POST /series`, every occurrence that cannot be booked (`startTime`, `reason`).",
      }),
  })
  .openapi("Problem", { description: "RFC 9457 problem details." });

const problemDescriptions = {
  400: "Malformed JSON, or a body that is not UTF-8.",
  401: "Missing, invalid or revoked API key.",
  403: "The API key lacks the scope this operation needs (`insufficient_scope`, naming it in `scope`).",
  404: "No such resource for this business.",
  409: "Conflict with the current state.",
  412: "If-Match names an ETag that is no longer current.",
  413: "Body larger than 64 KiB.",
  415: "Body is not `application/json`, or names a charset other than utf-8.",
  422: "Invalid input.",
  429: "Rate limit exceeded.",
  500: "Unexpected error.",
  503: "Storage is overloaded or restarting; retry after `Retry-After` seconds.",
} as const;

export type ProblemStatus = keyof typeof problemDescriptions;

type ProblemResponse = {
  description: string;
  headers: Record<string, HeaderObject | HeaderRef>;
  content: { "application/problem+json": { schema: typeof ProblemSchema } };
};

function problemResponsesOf(statuses: Iterable<ProblemStatus>, rateLimited: boolean) {
  return Object.fromEntries(
    [...new Set(statuses)].sort().map((status) => [
      status,
      {
        description: problemDescriptions[status],
        headers: problemHeaders(status, rateLimited),
        content: { "application/problem+json": { schema: ProblemSchema } },
      },
    ]),
  ) as Record<ProblemStatus, ProblemResponse>;
}

/**
 * OpenAPI responses for the given problem statuses of an authenticated, rate-limited route
 * (plus 401, 403, 429, 500 and 503, which every such route can return), each with its headers.
 */
export function problemResponses(...statuses: ProblemStatus[]) {
  return problemResponsesOf([...statuses, 401, 403, 429, 500, 503], true);
}

/** Problem responses of a public route: no key, no rate limit. */
export function publicProblemResponses(...statuses: ProblemStatus[]) {
  return problemResponsesOf(statuses, false);
}

/**
 * A JSON success response of an authenticated route: `RateLimit-Policy` and `X-Request-Id`,
 * plus the headers named (e.g. `{ required: ["Location"] }` on a 201), and the D1 bookmark.
 */
export function jsonResponse<T extends z.ZodType>(
  description: string,
  schema: T,
  headers: { required?: HeaderName[]; optional?: HeaderName[] } = {},
) {
  return {
    description,
    headers: responseHeaders(
      ["RateLimit-Policy", ...(headers.required ?? [])],
      [...(headers.optional ?? []), "X-D1-Bookmark"],
    ),
    content: { "application/json": { schema } },
  };
}

/** A JSON success response of a public route (no API key, so no key budget to announce). */
export const publicJsonResponse = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  headers: responseHeaders([]),
  content: { "application/json": { schema } },
});

/** A page of a list: the envelope with its `Link` header. */
export const pageResponse = <T extends z.ZodType>(description: string, schema: T) =>
  jsonResponse(description, schema, { required: ["Link"] });

/** A response without a body of an authenticated route (204, 304). */
export const emptyResponse = (description: string, required: HeaderName[] = []) => ({
  description,
  headers: responseHeaders(["RateLimit-Policy", ...required], ["X-D1-Bookmark"]),
});

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
export const ifNoneMatchHeader = z.object({
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

/** Security requirement for routes that need an API key. */
export const bearerSecurity = [{ bearerAuth: [] }];
