/**
 * The part of zod this API uses: the one list of it. Add a member here before using it as
 * `z.<member>`; type-checking refuses one that is not listed, because the bundle would not carry it
 * (see `./core`).
 */
export type { infer } from "zod/v4";
export {
  array,
  boolean,
  coerce,
  email,
  enum,
  iso,
  literal,
  looseObject,
  number,
  object,
  record,
  regexes,
  strictObject,
  string,
  union,
  url,
  ZodError,
  ZodType,
} from "zod/v4";
