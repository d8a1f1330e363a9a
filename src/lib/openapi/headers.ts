/**
 * The response headers of the OpenAPI document, defined once: each is a `components/headers`
 * entry, and routes declare them per response through `responseHeaders` (or the response
 * helpers of ./openapi.ts, which call it).
 */

/**
 * Every response header this API sends beyond the generic ones (content type, caching,
 * security). `registerResponseHeaders` puts them into `components/headers`.
 */
const headerDefinitions = {
  "X-Request-Id": {
    description:
      "Identifies this request in the logs and in a problem's `requestId`; a client's own `X-Request-Id` is echoed when it is 1–128 letters, digits, `-`, `_` or `=`.",
    schema: { type: "string", pattern: "^[A-Za-z0-9_=-]{1,128}$" },
  },
  Location: {
    description: "Path of the resource this request created.",
    schema: { type: "string", format: "uri-reference", example: "/api/v1/bookings/bkg_01jd3k5v7q8r9s0t1u2v3w4x5y" },
  },
  ETag: {
    description: "Entity tag of the current representation; send it back in `If-None-Match` or `If-Match`.",
    schema: { type: "string", pattern: '^(W/)?"[^"]*"$', example: '"v2"' },
  },
  Link: {
    description: "RFC 8288 links to the first, previous, next and last page, keeping the other query parameters.",
    schema: { type: "string", example: '</api/v1/bookings?page=2&limit=20>; rel="next"' },
  },
  "Idempotent-Replayed": {
    description: "`true` when this is the stored response of an earlier request with the same `Idempotency-Key`.",
    schema: { type: "string", enum: ["true"] },
    // Only replays carry it.
    required: false,
  },
  "X-D1-Bookmark": {
    description:
      "The D1 bookmark this request left. Sent back as a request header, the read sees at least that state (docs: reads from replicas).",
    schema: { type: "string", maxLength: 128, example: "00000000-00000005-00000000-00000000000000000000000000000000" },
    // Keyed answers that touched the database carry it.
    required: false,
  },
  "Retry-After": {
    description: "Seconds to wait before retrying.",
    schema: { type: "integer", minimum: 0, example: 60 },
  },
  "RateLimit-Policy": {
    description:
      "The API key's budget for this kind of request (IETF RateLimit headers): `q` requests per `w` seconds.",
    schema: { type: "string", example: '"reads";q=600;w=60' },
  },
  RateLimit: {
    description: "What is left of the budget: `r` requests remaining, `t` seconds until it is refilled.",
    schema: { type: "string", example: '"reads";r=0;t=60' },
  },
  "WWW-Authenticate": {
    description: 'The authentication scheme to use (`Bearer`), with `error="invalid_token"` when a key was sent.',
    schema: { type: "string", example: 'Bearer realm="api"' },
  },
} as const;

/** The name of a header defined in `headerDefinitions`. */
export type HeaderName = keyof typeof headerDefinitions;

export type HeaderObject = { description: string; required: boolean; schema: Record<string, unknown> };
export type HeaderRef = { $ref: string };

/** A definition as a header object: required unless the definition says otherwise. */
const componentOf = (name: HeaderName): HeaderObject => ({ required: true, ...headerDefinitions[name] });

/** Registers every header definition as `components/headers/<name>`. */
export function registerResponseHeaders(registry: {
  registerComponent(type: "headers", name: string, component: HeaderObject): unknown;
}): void {
  for (const name of Object.keys(headerDefinitions) as HeaderName[]) {
    registry.registerComponent("headers", name, componentOf(name));
  }
}

/** A reference to the shared component, or the definition inline where this response differs in `required`. */
function headerFor(name: HeaderName, required: boolean): HeaderObject | HeaderRef {
  const component = componentOf(name);
  return component.required === required ? { $ref: `#/components/headers/${name}` } : { ...component, required };
}

/**
 * The `headers` of one response: `X-Request-Id` (every response has it), the `required` ones,
 * and the `optional` ones (sent only in some cases, e.g. `Retry-After` on one kind of 409).
 */
export function responseHeaders(
  required: readonly HeaderName[] = [],
  optional: readonly HeaderName[] = [],
): Record<string, HeaderObject | HeaderRef> {
  const headers: Record<string, HeaderObject | HeaderRef> = {};
  for (const name of ["X-Request-Id", ...required] as HeaderName[]) headers[name] = headerFor(name, true);
  for (const name of optional) headers[name] = headerFor(name, false);
  return headers;
}

/**
 * Headers of a problem answer. `rateLimited` routes state `RateLimit-Policy` once the key is known
 * (not on 401, and not on 413, which the body limit answers before authentication).
 */
export function problemHeaders(status: number, rateLimited: boolean) {
  const policy: HeaderName[] = rateLimited && status !== 401 && status !== 413 ? ["RateLimit-Policy"] : [];
  switch (status) {
    case 401:
      return responseHeaders(["WWW-Authenticate"]);
    case 403:
      return responseHeaders(["WWW-Authenticate", ...policy]);
    case 429:
      return responseHeaders(["Retry-After", "RateLimit-Policy", "RateLimit"]);
    case 409:
      // Retry-After comes with idempotency_key_in_flight only.
      return responseHeaders(policy, ["Retry-After"]);
    case 412:
      return responseHeaders(policy, ["ETag"]);
    case 500:
    case 503:
      // These can also happen before the key is checked, so the policy is not always there.
      return responseHeaders([], status === 503 ? ["Retry-After", ...policy] : policy);
    default:
      return responseHeaders(policy);
  }
}
