/**
 * What the API keys and webhooks pages share: their page (a list, a form making a new one, the
 * secret shown this once or the words for a form sent again), a fieldset of checkboxes named `<list>.<value>` with the list's problem, and a
 * stored instant as a date.
 */
import type { Child } from "hono/jsx";
import type { FormFields } from "../../../pages/form";
import { AttemptField } from "../../frame/attempt";
import type { DeskContext } from "../../frame/desk";
import type { DeskStatus } from "../../frame/layout";
import { CheckField, inputId } from "../field";
import { setupPage, toSetup } from "../frame";
import { setupStyle } from "../style";

/** The setup's rules, and a secret that wraps anywhere rather than widen a narrow screen. */
const secretStyle = `${setupStyle}\n.secret{display:block;word-break:break-all;padding:12px;border:1px solid var(--line);border-radius:10px}`;

/** A stored instant as a date in the business's time zone and the member's language. */
export const createdOn = (c: DeskContext, instant: string) =>
  new Intl.DateTimeFormat(c.var.desk.locale, { dateStyle: "medium", timeZone: c.var.desk.timezone }).format(
    new Date(instant),
  );

/** A secret on the page answering its creation: the only time it is shown. */
function ShownOnce(props: { title: string; text: string; label: string; secret: string }) {
  return (
    <section aria-labelledby="once" class="flash">
      <h2 id="once">{props.title}</h2>
      <p>{props.text}</p>
      <p class="small">{props.label}</p>
      <code class="secret" id="secret">
        {props.secret}
      </code>
    </section>
  );
}

/** What a post left the page to say; `created` is the thing just made, with its secret, shown this once. */
export type SecretsState<Created> = {
  flash?: string;
  refused?: string;
  problems?: Record<string, string>;
  /** The form as sent, when it comes back with problems. */
  sent?: FormFields;
  created?: Created;
  /** The create form sent again: what it made before, said in words (the secret is not shown again). */
  resent?: string;
};

/** A page of things that each have a secret: its words, its list's items and its form's fields. */
export type SecretsView = {
  title: string;
  intro: string;
  apiLink: string;
  /** The secret just made and what is said around it. */
  shown?: { title: string; text: string; label: string; secret: string };
  list: { heading: string; none: string; hint: string; items: Child[] };
  add: { heading: string; action: string; fields: Child; button: string };
  /** The page's rules besides `secretStyle`. */
  positions?: string;
};

/**
 * The API keys' or webhooks' page: what the last post did (the secret, this once), the list, and
 * the form making a new one, which carries a new attempt (a form sent again makes nothing more).
 */
export function secretsPage(c: DeskContext, status: DeskStatus, state: SecretsState<unknown>, view: SecretsView) {
  const { shown, list, add } = view;
  return setupPage(
    c,
    status,
    {
      title: view.title,
      back: toSetup(c),
      flash: state.flash,
      refused: state.refused,
      positions: view.positions ? `${secretStyle}\n${view.positions}` : secretStyle,
    },
    <>
      {state.resent && (
        <p class="notice" role="status">
          {state.resent}
        </p>
      )}
      {shown && <ShownOnce title={shown.title} text={shown.text} label={shown.label} secret={shown.secret} />}
      <p class="muted">
        {view.intro} <a href="/docs">{view.apiLink}</a>
      </p>
      <section aria-labelledby="listed">
        <h2 id="listed">{list.heading}</h2>
        {list.items.length === 0 ? <p class="muted">{list.none}</p> : <ul class="members">{list.items}</ul>}
        <p class="muted small">{list.hint}</p>
      </section>
      <section aria-labelledby="adding">
        <h2 id="adding">{add.heading}</h2>
        <form method="post" action={add.action} class="setupform">
          <AttemptField />
          {add.fields}
          <button class="btn" type="submit">
            {add.button}
          </button>
        </form>
      </section>
    </>,
  );
}

/** The values of the ticked checkboxes named `<list>.<value>`. */
export const tickedOf = (fields: Record<string, string>, list: string) =>
  Object.keys(fields)
    .filter((name) => name.startsWith(`${list}.`))
    .map((name) => name.slice(list.length + 1));

/** Problems by field, one at a list's item (`scopes.2`) given to its list (`scopes`). */
export function byList(problems: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(problems)) out[path.split(".")[0] ?? path] ??= message;
  return out;
}

/** A fieldset of a checkbox per value, named `<list>.<value>`, ticked as `sent` has them. */
export function TickList(props: {
  list: string;
  legend: string;
  hint: string;
  values: readonly string[];
  sent: Record<string, string>;
  problem?: string;
}) {
  const err = `${inputId(props.list)}-err`;
  return (
    <fieldset aria-describedby={props.problem ? err : undefined}>
      <legend>{props.legend}</legend>
      <p class="muted small">{props.hint}</p>
      {props.values.map((value) => (
        <CheckField name={`${props.list}.${value}`} label={value} checked={`${props.list}.${value}` in props.sent} />
      ))}
      {props.problem && (
        <p class="err" id={err}>
          {props.problem}
        </p>
      )}
    </fieldset>
  );
}
