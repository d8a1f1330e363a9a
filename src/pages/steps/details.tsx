/** Step 5: the customer's details and the service's questions, while the hold keeps the time. */

import type { PublicService } from "../../booking-page/services";
import type { Question } from "../../types/questions";
import { type FormFields, fieldId, HONEYPOT } from "../form";
import { Layout } from "../layout";
import { icons, Notice, Progress, Summary } from "../parts";
import type { Flow } from "../state";
import type { View } from "../view";

/** The hold the page books, as the details page needs it. */
export type HeldTime = { id: string; token: string; startTime: string; expiresAt: string };

/** A time whose hold was released (a refusal the customer cannot fix with another time): sending the form holds it again. */
export type ReleasedTime = { startTime: string };

export type DetailsProps = {
  view: View;
  flow: Flow;
  service: PublicService;
  providerName?: string;
  withProvider: boolean;
  hold: HeldTime | ReleasedTime;
  values?: FormFields;
  problems?: Record<string, string>;
};

/** One labelled field with its problem, described by it. */
function Field(props: { name: string; label: string; optional?: string; problem?: string; children: unknown }) {
  const id = fieldId(props.name);
  return (
    <div class="field">
      <label for={id}>
        {props.label}
        {props.optional && <span class="opt"> ({props.optional})</span>}
      </label>
      {props.children}
      {props.problem && (
        <p class="err" id={`${id}-err`}>
          {props.problem}
        </p>
      )}
    </div>
  );
}

/** The attributes that tie an input to its problem. */
const invalid = (name: string, problem: string | undefined) =>
  problem ? { "aria-invalid": "true", "aria-describedby": `${fieldId(name)}-err` } : {};

/** The customer's own fields: the API's limits as `maxlength`, and what a browser fills each with. */
const CONTACT = [
  { name: "name", type: undefined, autocomplete: "name", maxlength: 200, required: true },
  { name: "email", type: "email", autocomplete: "email", maxlength: 254, required: true },
  { name: "phone", type: "tel", autocomplete: "tel", maxlength: 32, required: false },
] as const;

function QuestionField({ q, view, value, problem }: { q: Question; view: View; value: string; problem?: string }) {
  const { m } = view;
  const name = `q.${q.key}`;
  const id = fieldId(name);
  const optional = q.required ? undefined : m.details.optional;
  if (q.type === "boolean") {
    return (
      <fieldset class="radios" {...(problem ? { "aria-describedby": `${id}-err` } : {})}>
        <legend>
          {q.label}
          {optional && <span class="opt"> ({optional})</span>}
        </legend>
        {(["yes", "no"] as const).map((answer) => (
          <label>
            <input type="radio" name={name} value={answer} checked={value === answer} required={q.required} />
            {m.details[answer]}
          </label>
        ))}
        {problem && (
          <p class="err" id={`${id}-err`}>
            {problem}
          </p>
        )}
      </fieldset>
    );
  }
  const common = { id, name, required: q.required, ...invalid(name, problem) };
  return (
    <Field name={name} label={q.label} optional={optional} problem={problem}>
      {q.type === "choice" ? (
        <select {...common}>
          <option value="">{m.details.choose}</option>
          {(q.choices ?? []).map((choice) => (
            <option value={choice} selected={value === choice}>
              {choice}
            </option>
          ))}
        </select>
      ) : q.type === "number" ? (
        <input {...common} type="text" inputmode="decimal" value={value} />
      ) : (
        <textarea {...common} maxlength={2000}>
          {value}
        </textarea>
      )}
    </Field>
  );
}

/** Until when the hold keeps the time, counting down (the page's script), and said once a minute is left. */
function Countdown({ view, expiresAt }: { view: View; expiresAt: string }) {
  const { m, f } = view;
  const left = Math.max(0, Math.round((Date.parse(expiresAt) - Date.now()) / 1000));
  return (
    <>
      <p class="hold" data-expires={expiresAt}>
        {icons.timer}
        <span>
          {m.details.held(f.time(expiresAt))}{" "}
          <strong data-left>{`${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`}</strong> {m.details.left}
        </span>
      </p>
      <p
        class="sr-only"
        aria-live="polite"
        data-announce
        data-minute={m.details.oneMinute}
        data-expired={m.details.expiredNow}
      />
    </>
  );
}

export function DetailsPage(props: DetailsProps) {
  const { view, flow, service, hold } = props;
  const { m, f } = view;
  const values = props.values ?? {};
  const problems = props.problems ?? {};
  const listed = Object.entries(problems);
  const held = "token" in hold ? hold : undefined;
  return (
    <Layout view={view} title={m.details.heading} capability>
      <div class="cols">
        <Summary view={view} service={service} providerName={props.providerName} when={f.dateTime(hold.startTime)}>
          {held ? <Countdown view={view} expiresAt={held.expiresAt} /> : <p class="hold">{m.details.released}</p>}
        </Summary>
        <div class="panel">
          <Progress view={view} current="details" />
          <h2>{m.details.heading}</h2>
          {listed.length > 0 && (
            <Notice tone="bad" live>
              <strong>{m.details.problems}</strong>
              <ul>
                {listed.map(([name, problem]) => (
                  <li>{name === HONEYPOT ? problem : <a href={`#${fieldId(name)}`}>{problem}</a>}</li>
                ))}
              </ul>
            </Notice>
          )}
          {service.requiresConfirmation && <p class="muted small">{m.details.requiresConfirmation}</p>}
          <form method="post" action={`/book/${flow.slug}/book`}>
            {held ? (
              <>
                <input type="hidden" name="hold" value={held.id} />
                <input type="hidden" name="token" value={held.token} />
              </>
            ) : (
              <>
                <input type="hidden" name="service" value={service.id} />
                <input type="hidden" name="start" value={hold.startTime} />
              </>
            )}
            <input type="hidden" name="tz" value={view.tz} />
            {flow.person && <input type="hidden" name="person" value={flow.person} />}
            {flow.lang && <input type="hidden" name="lang" value={flow.lang} />}
            {flow.embed && <input type="hidden" name="embed" value="1" />}
            {CONTACT.map((f) => (
              <Field
                name={f.name}
                label={m.details[f.name]}
                optional={f.required ? undefined : m.details.optional}
                problem={problems[f.name]}
              >
                <input
                  id={fieldId(f.name)}
                  name={f.name}
                  type={f.type}
                  autocomplete={f.autocomplete}
                  required={f.required}
                  maxlength={f.maxlength}
                  value={values[f.name] ?? ""}
                  {...invalid(f.name, problems[f.name])}
                />
              </Field>
            ))}
            {service.questions.map((q) => (
              <QuestionField q={q} view={view} value={values[`q.${q.key}`] ?? ""} problem={problems[`q.${q.key}`]} />
            ))}
            <Field name="notes" label={m.details.notes} optional={m.details.optional} problem={problems.notes}>
              <textarea id={fieldId("notes")} name="notes" maxlength={2000} {...invalid("notes", problems.notes)}>
                {values.notes ?? ""}
              </textarea>
            </Field>
            <div class="trap" hidden>
              <label for={fieldId(HONEYPOT)}>{m.details.honeypot}</label>
              <input id={fieldId(HONEYPOT)} name={HONEYPOT} tabindex={-1} autocomplete="off" value="" />
            </div>
            <button class="btn block" type="submit">
              {m.details.submit}
            </button>
          </form>
        </div>
      </div>
    </Layout>
  );
}
