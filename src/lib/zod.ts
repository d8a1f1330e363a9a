/**
 * `z` for the API's schemas: zod's members that `./zod-core` lists, with `.openapi()` added by
 * `@hono/zod-openapi` (imported here first, so the methods exist before any schema is built).
 * Typed by that list, so using a member the bundle would not carry fails type-checking.
 */
import "@hono/zod-openapi";
import type { output, ZodType as Schema } from "zod/v4";
import { z as members } from "./zod-core";

export const z = members;

/** Types under `z`, as zod's own namespace has them. */
export declare namespace z {
  /** The parsed type of a schema. */
  type infer<T extends Schema> = output<T>;
  /** Any schema (with this output and input). */
  type ZodType<Output = unknown, Input = unknown> = Schema<Output, Input>;
}
