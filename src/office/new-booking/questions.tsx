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

/** One question as a field of the office's form: text, number, yes/no or a choice. */
function QuestionField(props: { q: Question; m: Messages; value: string; problem?: string }) {
  const { q, m, value, problem } = props;
  const name = `q.${q.key}`;
  const id = `q-${q.key}`;
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
  locale: Locale;
  values?: Record<string, string>;
  problems?: Record<string, string>;
}) {
  const m = messagesOf(props.locale);
  return (
    <>
      {props.questions.map((q) => (
        <QuestionField
          q={q}
          m={m}
          value={props.values?.[`q.${q.key}`] ?? ""}
          problem={props.problems?.[`q.${q.key}`]}
        />
      ))}
    </>
  );
}
