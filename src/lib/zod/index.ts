/**
 * `z` for the API's schemas: the members `./members` lists, with `.openapi()` added by
 * `@hono/zod-openapi` (imported here first, so the method exists before any schema is built).
 */
import "@hono/zod-openapi";

export { z } from "./core";
