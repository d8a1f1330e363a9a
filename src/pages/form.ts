/**
 * The details form as the server reads it: every field checked by the same rules as the JSON
 * (the API's field schemas, the service's questions), each problem named at its field in the
 * visitor's language, and the honeypot that no person fills in.
 */
import type { HonoRequest } from "hono";
import { parseMediaType } from "../middleware/media-type";
import { customerEmail, customerName, customerPhone } from "../schemas/fields";
import { type Answers, MAX_TEXT_ANSWER, type Question } from "../types/questions";
import type { Messages } from "./i18n";

/** The field no person sees or fills in; automated forms do. */
export const HONEYPOT = "website";

/** A form's fields as sent (the last value of each name), at most this long each. */
export type FormFields = Record<string, string>;

/** A field's `id` in the page (its `name`, with `q.` for questions). */
export const fieldId = (name: string) => `f-${name.replace(".", "-")}`;

/** What the details form books, once every field is right. */
export type Details = {
  customerName: string;
  customerEmail: string;
  customerPhone?: string;
  notes?: string;
  answers: Answers;
};

/** The form's fields read and checked: the details, or the problems by field name. */
export function readDetails(
  fields: FormFields,
  questions: readonly Question[],
  m: Messages,
): { details?: Details; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const value = (name: string) => (fields[name] ?? "").trim();
  if (value(HONEYPOT) !== "") problems[HONEYPOT] = m.fix.honeypot;
  const name = customerName.safeParse(value("name"));
  if (!name.success) problems.name = m.fix.name;
  const email = customerEmail.safeParse(value("email"));
  if (!email.success) problems.email = m.fix.email;
  const phone = value("phone") === "" ? undefined : customerPhone.safeParse(value("phone"));
  if (phone && !phone.success) problems.phone = m.fix.phone;
  const notes = value("notes");
  if (notes.length > 2000) problems.notes = m.fix.notes;
  const answers: Answers = {};
  for (const q of questions) {
    const field = `q.${q.key}`;
    const raw = value(field);
    if (raw === "") {
      if (q.required) problems[field] = m.fix.required;
      continue;
    }
    if (q.type === "text") {
      if (raw.length > MAX_TEXT_ANSWER) problems[field] = m.fix.text;
      else answers[q.key] = raw;
    } else if (q.type === "number") {
      const n = Number(raw.replace(",", "."));
      if (Number.isFinite(n)) answers[q.key] = n;
      else problems[field] = m.fix.number;
    } else if (q.type === "boolean") {
      if (raw === "yes" || raw === "no") answers[q.key] = raw === "yes";
      else problems[field] = m.fix.choice;
    } else if (q.choices?.includes(raw)) answers[q.key] = raw;
    else problems[field] = m.fix.choice;
  }
  if (Object.keys(problems).length > 0 || !name.success || !email.success) return { problems };
  return {
    problems,
    details: {
      customerName: name.data,
      customerEmail: email.data,
      ...(phone?.success ? { customerPhone: phone.data } : {}),
      ...(notes ? { notes } : {}),
      answers,
    },
  };
}

/** The fields of a urlencoded or multipart body: text values only, each cut to 4,000 characters. */
function fieldsOf(body: Record<string, unknown>): FormFields {
  const fields: FormFields = {};
  for (const [name, value] of Object.entries(body)) {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (typeof last === "string" && name.length <= 64) fields[name] = last.slice(0, 4_000);
  }
  return fields;
}

/**
 * A form body the pages cannot read: 415 for a body that is not a form or names a charset other
 * than UTF-8, 400 for one cut short or garbled. errorPage (render.tsx) answers it as a page.
 */
export class UnreadableForm extends Error {
  constructor(
    readonly status: 400 | 415,
    detail: string,
  ) {
    super(detail);
    this.name = "UnreadableForm";
  }
}

const formTypes = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/**
 * The fields of a request's form body, the one way every form route reads one; a body it cannot
 * read throws UnreadableForm before anything is looked at (workerd's parser throws a TypeError
 * for a multipart body cut short or an unknown charset, which would otherwise be a 500).
 */
export async function readForm(c: { req: HonoRequest }): Promise<FormFields> {
  const type = parseMediaType(c.req.header("Content-Type") ?? "");
  if (!type || !formTypes.has(type.essence)) throw new UnreadableForm(415, "The body is not a form.");
  const charsets = type.parameters.filter(([name]) => name === "charset").map(([, value]) => value.toLowerCase());
  if (charsets.some((charset) => charset !== "utf-8")) throw new UnreadableForm(415, "The form is not in UTF-8.");
  try {
    return fieldsOf(await c.req.parseBody());
  } catch (error) {
    throw new UnreadableForm(400, `The form could not be read: ${String(error)}`);
  }
}
