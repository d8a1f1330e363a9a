import type { Hook } from "@hono/zod-openapi";
import type * as z from "zod";
import type { AppEnv } from "../env";
import { ApiError, type FieldError } from "./errors";

/** Flattens zod issues into `{ path, message }` pairs; the root is reported as `(root)`. */
export function fieldErrors(error: Pick<z.ZodError, "issues">): FieldError[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      return { path: path || "(root)", message: `Unknown field(s): ${issue.keys.join(", ")}` };
    }
    return { path: path || "(root)", message: issue.message };
  });
}

const targetDetails: Record<string, string> = {
  json: "The request body is invalid.",
  query: "The query string is invalid.",
  param: "The path is invalid.",
  header: "The request headers are invalid.",
};

/** Validation hook for every route: a failed parse becomes a 422 `validation_failed`. */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (!result.success) {
    const detail = targetDetails[result.target] ?? "The request is invalid.";
    throw new ApiError("validation_failed", detail, { errors: fieldErrors(result.error) });
  }
};
