/**
 * The service's questions on the phone-in's last step, asked of the caller, and their answers read
 * by the booking page's own reader (src/pages/form.ts `readDetails`: the same rules and words), so
 * a service with required questions can be booked by phone too.
 */

import { type Details, readDetails } from "../../pages/form";
import { type Messages, messagesOf } from "../../pages/i18n";
import type { Locale } from "../../types/business";
import type { Question } from "../../types/questions";

/** The answers (and the notes) of a posted last step, or the problems by field name (`q.<key>`, `notes`). */
export function answersOf(
  fields: Record<string, string>,
  customer: { name: string; email: string; phone?: string },
  questions: readonly Question[],
  locale: Locale,
): { details?: Details; problems: Record<string, string> } {
  // The customer was checked on their own step: their details stand in for the page's fields.
  const merged = { ...fields, name: customer.name, email: customer.email, phone: customer.phone ?? "", website: "" };
  return readDetails(merged, questions, messagesOf(locale));
}

/**
 * The prefix of a service's question fields on the form: `q` for the first service (the booking
 * page's own names), `q2`, `q3`… for a visit's later ones (two services may ask the same key).
 */
export const questionPrefix = (i: number) => (i === 0 ? "q" : `q${i + 1}`);

/**
 * The answers of each of a visit's services, read as `answersOf` reads one's (the notes with the
 * first), or the problems by field name (`q2.<key>` for the second service's).
 */
export function visitAnswersOf(
  fields: Record<string, string>,
  customer: { name: string; email: string; phone?: string },
  questionsOf: readonly (readonly Question[])[],
  locale: Locale,
): { details?: Details; answers: Details["answers"][]; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const answers: Details["answers"][] = [];
  let details: Details | undefined;
  for (const [i, questions] of questionsOf.entries()) {
    const prefix = questionPrefix(i);
    // Each service's fields under the booking page's names, so its reader reads them.
    const own: Record<string, string> = i === 0 ? { ...fields } : { notes: "" };
    if (i > 0) {
      for (const [name, value] of Object.entries(fields)) {
        if (name.startsWith(`${prefix}.`)) own[`q.${name.slice(prefix.length + 1)}`] = value;
      }
    }
    const read = answersOf(own, customer, questions, locale);
    for (const [name, problem] of Object.entries(read.problems)) {
      problems[name.startsWith("q.") ? `${prefix}.${name.slice(2)}` : name] = problem;
    }
    if (read.details) answers.push(read.details.answers);
    if (i === 0) details = read.details;
  }
  const complete = Object.keys(problems).length === 0 && details !== undefined;
  return complete ? { details, answers, problems } : { answers, problems };
}

/** One question as a field of the office's form: text, number, yes/no or a choice. */
function QuestionField(props: { q: Question; m: Messages; prefix: string; value: string; problem?: string }) {
  const { q, m, prefix, value, problem } = props;
  const name = `${prefix}.${q.key}`;
  const id = `${prefix}-${q.key}`;
  const label = q.required ? q.label : `${q.label} (${m.details.optional})`;
  const described = problem ? { "aria-invalid": "true" as const, "aria-describedby": `${id}-err` } : {};
  return (
    <>
      <label for={id}>{label}</label>
      {q.type === "choice" || q.type === "boolean" ? (
        <select id={id} name={name} required={q.required} {...described}>
          <option value="">{m.details.choose}</option>
          {(q.type === "boolean" ? ["yes", "no"] : (q.choices ?? [])).map((choice) => (
            <option value={choice} selected={value === choice}>
              {q.type === "boolean" ? m.details[choice as "yes" | "no"] : choice}
            </option>
          ))}
        </select>
      ) : q.type === "number" ? (
        <input id={id} name={name} type="text" inputmode="decimal" value={value} required={q.required} {...described} />
      ) : (
        <input id={id} name={name} type="text" maxlength={2000} value={value} required={q.required} {...described} />
      )}
      {problem && (
        <p class="err" id={`${id}-err`}>
          {problem}
        </p>
      )}
    </>
  );
}

/** The service's questions, with what was entered and what was wrong after a refused post. */
export function Questions(props: {
  questions: readonly Question[];
  prefix?: string;
  locale: Locale;
  values?: Record<string, string>;
  problems?: Record<string, string>;
}) {
  const m = messagesOf(props.locale);
  const prefix = props.prefix ?? "q";
  return (
    <>
      {props.questions.map((q) => (
        <QuestionField
          q={q}
          m={m}
          prefix={prefix}
          value={props.values?.[`${prefix}.${q.key}`] ?? ""}
          problem={props.problems?.[`${prefix}.${q.key}`]}
        />
      ))}
    </>
  );
}
