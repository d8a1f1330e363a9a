import type { Hook } from "@hono/zod-openapi";
import type * as z from "zod";
import type { AppEnv } from "../env";
import { ApiError, type FieldError } from "./api-error";

/** Flattens zod issues into `{ path, message }` pairs (dotted paths; the root is `(root)`). */
export function fieldErrors(error: Pick<z.ZodError, "issues">): FieldError[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      // One entry per unknown name, at its own path, so a client can point at the field.
      return issue.keys.map((key) => ({ path: path ? `${path}.${key}` : key, message: `Unknown field ${key}.` }));
    }
    return [{ path: path || "(root)", message: issue.message }];
  });
}

const targetDetails: Record<string, string> = {
  json: "The request body is invalid.",
  query: "The query string is invalid.",
  param: "The path is invalid.",
  header: "The request headers are invalid.",
};

/**
 * The path of the first string in `value` that is not well-formed UTF-16 (a lone surrogate,
 * which JSON escapes allow), or undefined. Such text cannot be stored as UTF-8 unchanged.
 */
function illFormedStringPath(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === "string") return value.isWellFormed() ? undefined : path.join(".") || "(root)";
  if (value && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      const found = illFormedStringPath(child, [...path, key]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Throws 422 when a request body holds text that is not well-formed Unicode. */
export function assertWellFormed(body: unknown): void {
  const path = illFormedStringPath(body);
  if (path !== undefined) {
    throw new ApiError("validation_failed", "The request body is invalid.", {
      errors: [{ path, message: "Text must be well-formed Unicode (no unpaired surrogates)." }],
    });
  }
}

/** Validation hook for every route: a failed parse becomes a 422 `validation_failed`. */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (result.success && result.target === "json") assertWellFormed(result.data);
  if (!result.success) {
    const detail = targetDetails[result.target] ?? "The request is invalid.";
    throw new ApiError("validation_failed", detail, { errors: fieldErrors(result.error) });
  }
};
