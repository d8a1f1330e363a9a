/**
 * The request and responses of the API's recurring kinds of operation (read, delete, create,
 * cancel, conditional read and change by id), each spread into a route's `createRoute`.
 */

import {
  bodyProblems,
  emptyResponse,
  idempotencyKeyHeader,
  idParam,
  ifMatchHeader,
  ifNoneMatchHeader,
  jsonResponse,
  type ProblemStatus,
  problemResponses,
} from "../lib/openapi";
import type { z } from "../lib/zod";
import { emptyBodyAsObject } from "../middleware/json-body";

/**
 * The request and responses of `POST /…/{id}/cancel`: the id, `Idempotency-Key` and an optional
 * body (none, empty or `{}` cancels without a reason; an empty body sent with a `Content-Type`
 * reads as `{}`); 200 with what was cancelled, else 404, 409 or a body problem.
 */
export const cancelOperation = <B extends z.ZodType, R extends z.ZodType>(
  example: string,
  body: B,
  answer: { description: string; schema: R },
) => ({
  middleware: emptyBodyAsObject,
  request: {
    params: idParam(example),
    headers: idempotencyKeyHeader,
    body: { required: false as const, content: { "application/json": { schema: body } } },
  },
  responses: {
    200: jsonResponse(answer.description, answer.schema, { optional: ["Idempotent-Replayed"] }),
    ...problemResponses(404, 409, ...bodyProblems),
  },
});

/** The request and responses of a plain GET by id: `{id}` in, the resource (200) or a problem out. */
export const readById = <T extends z.ZodType>(idExample: string, description: string, schema: T) => ({
  request: { params: idParam(idExample) },
  responses: { 200: jsonResponse(description, schema), ...problemResponses(404, 422) },
});

/** The request and responses of a DELETE by id: `{id}` in, 204 without a body or a problem out. */
export const deleteById = (idExample: string, description: string) => ({
  request: { params: idParam(idExample) },
  responses: { 204: emptyResponse(description), ...problemResponses(404, 422) },
});

/**
 * The request and responses of an idempotent `POST` that creates: `Idempotency-Key` and a JSON
 * body in; 201 with what was made and its `Location` (`Idempotent-Replayed` on a replay), else a
 * 409 or a body problem.
 */
export const idempotentCreate = <B extends z.ZodType, R extends z.ZodType>(
  body: B,
  description: string,
  schema: R,
) => ({
  request: {
    headers: idempotencyKeyHeader,
    body: { required: true, content: { "application/json": { schema: body } } },
  },
  responses: {
    201: jsonResponse(description, schema, { required: ["Location"], optional: ["Idempotent-Replayed"] }),
    ...problemResponses(409, ...bodyProblems),
  },
});

/**
 * The request and responses of a conditional single-resource GET: `{id}` and `If-None-Match`
 * in, the resource with its `ETag` (200) or 304 out, plus the usual problems.
 */
export function conditionalGet<T extends z.ZodType>(schema: T, description: string, idExample: string) {
  return {
    description: "Sends the `ETag`; with `If-None-Match` naming the current one, the answer is a 304 without a body.",
    request: { params: idParam(idExample), headers: ifNoneMatchHeader },
    responses: {
      200: jsonResponse(description, schema, { required: ["ETag"] }),
      304: emptyResponse("Not modified: the ETag in If-None-Match is current.", ["ETag"]),
      ...problemResponses(404, 422),
    },
  };
}

/**
 * The request and responses of a PATCH by id: a JSON body, an optional `If-Match`, and the changed
 * object with its new `ETag` — or a problem (404, 412, the body's problems, and `problems`).
 */
export function conditionalPatch<B extends z.ZodType, T extends z.ZodType>(
  body: B,
  schema: T,
  description: string,
  idExample: string,
  ...problems: ProblemStatus[]
) {
  return {
    request: {
      params: idParam(idExample),
      headers: ifMatchHeader,
      body: { required: true, content: { "application/json": { schema: body } } },
    },
    responses: {
      200: jsonResponse(description, schema, { required: ["ETag"] }),
      ...problemResponses(404, 412, ...bodyProblems, ...problems),
    },
  };
}
