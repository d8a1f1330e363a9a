/**
 * The part of zod this API uses, as one object. `wrangler.toml` [alias] hands it to every
 * `import { z } from "zod"` in the bundle (that is `@hono/zod-openapi`'s, which passes `z` to
 * `extendZodWithOpenApi`): a namespace passed as a value keeps every export alive, zod's 41 KB
 * of locales included, while named imports from "zod/v4" let the bundler drop what is unused.
 * The classes are zod's own, so `.openapi()` and `instanceof` work on both sides.
 * Code imports `z` from `./zod` (which types it); add a member here before using it there.
 */
import {
  array,
  boolean,
  coerce,
  email,
  enum as enumOf,
  iso,
  literal,
  looseObject,
  number,
  object,
  regexes,
  strictObject,
  string,
  url,
  ZodError,
  ZodType,
} from "zod/v4";

export const z = {
  array,
  boolean,
  coerce,
  email,
  enum: enumOf,
  iso,
  literal,
  looseObject,
  number,
  object,
  regexes,
  strictObject,
  string,
  url,
  ZodError,
  ZodType,
};
