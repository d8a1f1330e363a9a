import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { ApiError, type ProblemCode, problemTypes, problemTypeUri } from "./api-error";
import { isMoving, isTransientFailure, movingProblem, RETRY_AFTER_SECONDS } from "./transient";

/** Renders an ApiError as an RFC 9457 `application/problem+json` response. */
export function problemResponse(c: Context, error: ApiError): Response {
  const requestId = (c.get("requestId") as string | undefined) ?? "";
  const url = new URL(c.req.url);
  const body = {
    type: problemTypeUri(url.origin, error.code),
    title: problemTypes[error.code].title,
    status: error.status,
    detail: error.message,
    code: error.code,
    instance: url.pathname,
    requestId,
    ...(error.errors ? { errors: error.errors } : {}),
    ...error.extensions,
  };
  const headers = new Headers(error.headers);
  // Every 503 is worth a retry, and the document promises each one says when.
  if (error.status === 503 && !headers.has("Retry-After")) headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
  headers.set("Content-Type", "application/problem+json");
  if (requestId) headers.set("X-Request-Id", requestId);
  return new Response(JSON.stringify(body), { status: error.status, headers });
}

const httpExceptionCodes: Partial<Record<number, [ProblemCode, string]>> = {
  400: ["malformed_json", "The request body is not valid JSON."],
  413: ["payload_too_large", "The request body is larger than 64 KiB."],
  415: ["unsupported_media_type", "Send the request body as application/json."],
};

/**
 * The single error handler: known errors keep their status and code, framework errors are
 * translated, platform overload and resets are a 503 with `Retry-After`, and anything else is
 * logged with the request id and answered as a bare 500.
 */
export function onError(err: unknown, c: Context): Response {
  if (err instanceof ApiError) return problemResponse(c, err);
  if (err instanceof HTTPException) {
    const known = httpExceptionCodes[err.status];
    if (known) return problemResponse(c, new ApiError(known[0], known[1]));
  }
  // A calendar object holds its writes while its business moves between databases (src/shards/held.ts).
  if (isMoving(err)) return problemResponse(c, movingProblem());
  const transient = isTransientFailure(err);
  (transient ? console.warn : console.error)(
    JSON.stringify({
      level: transient ? "warn" : "error",
      requestId: c.get("requestId"),
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      stack: err instanceof Error ? err.stack : undefined,
    }),
  );
  if (transient) {
    return problemResponse(
      c,
      new ApiError("unavailable", `Storage is busy or restarting. Retry in ${RETRY_AFTER_SECONDS} s.`),
    );
  }
  return problemResponse(
    c,
    new ApiError("internal_error", "An unexpected error occurred. Quote the request id when reporting it."),
  );
}
