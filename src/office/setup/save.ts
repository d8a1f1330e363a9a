/**
 * The business, service and room pages' one way to save a form: the body is checked by the API's
 * own schema for the operation, then given to the API's own function for it; its problems come
 * back by field (the form's fields are named by the API's paths, as `bookingPage.title`), its
 * refusals (409 conflicts, 412 changed meanwhile) with their reason. 404s and failures are thrown
 * on to the office's error page. Also the few readers of form text into the API's types.
 */
import { ApiError } from "../../lib/api-error";
import type { z } from "../../lib/zod";
import type { FormFields } from "../../pages/form";
import type { Locale } from "../../types/business";
import type { DeskContext } from "../frame/desk";
import { problemsIn, sentenceIn } from "../frame/problems";
import { setupWordsOf } from "./words";

/** What a save came to: the function's answer, or the problems by field and why nothing was saved. */
export type Saved<T> =
  | { ok: true; value: T }
  | { ok: false; problems: Record<string, string>; refused: string; status: 409 | 422 };

/** A refusal as problems by field (the first one at each), or thrown on when it is not the caller's to fix. */
function refusalOf(error: unknown, locale: Locale): Saved<never> {
  if (!(error instanceof ApiError) || error.status === 404 || error.status >= 500) throw error;
  const problems: Record<string, string> = {};
  for (const e of error.errors ?? []) problems[e.path] ??= sentenceIn(locale, e.message);
  const conflict = error.status === 409 || error.status === 412;
  const refused = conflict ? sentenceIn(locale, error.message) : setupWordsOf(locale).fixBelow;
  return { ok: false, problems, refused, status: conflict ? 409 : 422 };
}

/**
 * Checks `body` with `schema` (problems at their paths, in the page's language), then runs `run`
 * with what it parsed. `problems` already found in the form (a number that is not one) refuse it
 * before the schema.
 */
export async function saveWith<S extends z.ZodType, T>(
  c: DeskContext,
  schema: S,
  body: unknown,
  run: (data: z.infer<S>) => Promise<T>,
  problems: Record<string, string> = {},
): Promise<Saved<T>> {
  const { locale } = c.var.desk;
  const parsed = schema.safeParse(body);
  const found = { ...problems };
  if (!parsed.success) for (const e of problemsIn(locale, parsed.error)) found[e.path] ??= e.message;
  if (Object.keys(found).length > 0 || !parsed.success) {
    return { ok: false, problems: found, refused: setupWordsOf(locale).fixBelow, status: 422 };
  }
  try {
    return { ok: true, value: await run(parsed.data) };
  } catch (error) {
    return refusalOf(error, locale);
  }
}

/** A field's text, trimmed ("" when not sent). */
export const textOf = (fields: FormFields, name: string) => (fields[name] ?? "").trim();

/** A text field that the API takes as null when empty. */
export const orNull = (fields: FormFields, name: string) => textOf(fields, name) || null;

/** A ticked checkbox. */
export const ticked = (fields: FormFields, name: string) => fields[name] !== undefined;

/**
 * A whole-number field: its number, null when empty, or (not a whole number) undefined with the
 * problem noted at the field. The API's schema then checks its bounds.
 */
export function wholeNumber(
  fields: FormFields,
  name: string,
  problems: Record<string, string>,
  notANumber: string,
): number | null | undefined {
  const text = textOf(fields, name);
  if (text === "") return null;
  if (!/^-?\d{1,9}$/.test(text)) {
    problems[name] = notANumber;
    return undefined;
  }
  return Number(text);
}

/**
 * A value as JSON with every object's keys sorted and its empty lists left out, so neither key
 * order nor a weekday stored absent but read back as `[]` (both closed) tells two values apart.
 */
const stable = (value: unknown): string =>
  JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([, item]) => !(Array.isArray(item) && item.length === 0))
            .sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );

/** Only the keys of `next` whose values differ from `stored`'s: a save records what it changed, nothing more. */
export function changedOnly<T extends Record<string, unknown>>(next: T, stored: Record<string, unknown>): Partial<T> {
  const changed: Partial<T> = {};
  for (const [key, value] of Object.entries(next)) {
    if (value !== undefined && stable(value) !== stable(stored[key])) {
      (changed as Record<string, unknown>)[key] = value;
    }
  }
  return changed;
}

/**
 * Stored values as a form's fields, named by their API paths (`bookingPage.title`): text as it is,
 * a number in digits, null as empty, true as a ticked box; false is left out, as an unticked box is.
 */
export function formFieldsOf(values: Record<string, unknown>, prefix = ""): FormFields {
  const fields: FormFields = {};
  for (const [key, value] of Object.entries(values)) {
    const name = prefix + key;
    if (value === null) fields[name] = "";
    else if (value === true) fields[name] = "on";
    else if (typeof value === "string" || typeof value === "number") fields[name] = String(value);
    else if (typeof value === "object" && !Array.isArray(value)) {
      Object.assign(fields, formFieldsOf(value as Record<string, unknown>, `${name}.`));
    }
  }
  return fields;
}
