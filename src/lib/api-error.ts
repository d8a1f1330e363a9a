/**
 * One error type for the whole API. Each machine `code` maps to one HTTP status and title;
 * `onError` turns any thrown ApiError into an RFC 9457 problem response.
 */
export const problemTypes = {
  malformed_json: { status: 400, title: "Malformed JSON" },
  unauthorized: { status: 401, title: "Unauthorized" },
  insufficient_scope: { status: 403, title: "Insufficient scope" },
  cross_site: { status: 403, title: "Cross-site request" },
  not_found: { status: 404, title: "Not found" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  slot_unavailable: { status: 409, title: "Slot unavailable" },
  customer_exists: { status: 409, title: "Customer exists" },
  invalid_transition: { status: 409, title: "Invalid status transition" },
  hold_expired: { status: 409, title: "Hold expired" },
  hold_limit_reached: { status: 409, title: "Too many live holds" },
  idempotency_key_in_flight: { status: 409, title: "Request with this idempotency key in flight" },
  webhook_endpoint_limit: { status: 409, title: "Webhook endpoint limit reached" },
  bookings_conflict: { status: 409, title: "Existing bookings conflict with the change" },
  policy_window: { status: 409, title: "Inside the policy window" },
  slot_available: { status: 409, title: "Slot available" },
  waitlist_full: { status: 409, title: "Waitlist full" },
  slug_taken: { status: 409, title: "Slug taken" },
  calendar_limit: { status: 409, title: "Calendar limit reached" },
  api_key_limit: { status: 409, title: "API key limit reached" },
  last_owner: { status: 409, title: "Last active owner" },
  member_exists: { status: 409, title: "Member exists" },
  member_limit: { status: 409, title: "Member limit reached" },
  precondition_failed: { status: 412, title: "Precondition failed" },
  payload_too_large: { status: 413, title: "Payload too large" },
  unsupported_media_type: { status: 415, title: "Unsupported media type" },
  validation_failed: { status: 422, title: "Validation failed" },
  service_not_found: { status: 422, title: "Service not found" },
  service_inactive: { status: 422, title: "Service inactive" },
  idempotency_key_reused: { status: 422, title: "Idempotency key reused" },
  rate_limited: { status: 429, title: "Too many requests" },
  internal_error: { status: 500, title: "Internal server error" },
  unavailable: { status: 503, title: "Service unavailable" },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof problemTypes;

/** One invalid input: a JSON-pointer-like dotted path and a human message. */
export type FieldError = { path: string; message: string };

export type ApiErrorOptions = {
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** Extra members for the problem body, e.g. `reason` for slot_unavailable. */
  extensions?: Record<string, unknown>;
};

/** Throw from anywhere in a request; `onError` renders it as problem+json. */
export class ApiError extends Error {
  readonly code: ProblemCode;
  readonly status: (typeof problemTypes)[ProblemCode]["status"];
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;
  readonly extensions?: Record<string, unknown>;

  constructor(code: ProblemCode, detail: string, options: ApiErrorOptions = {}) {
    super(detail);
    this.name = "ApiError";
    this.code = code;
    this.status = problemTypes[code].status;
    this.errors = options.errors;
    this.headers = options.headers;
    this.extensions = options.extensions;
  }
}

/** The `type` URI of a problem code; documented at that path of the API. */
export function problemTypeUri(origin: string, code: ProblemCode): string {
  return `${origin}/api/v1/problems/${code}`;
}

/** The message of a thrown value, for logs and `last_error`. */
export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
