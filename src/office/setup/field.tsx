/** A labelled form field of the setup pages, with its problem beside it (named by `aria-describedby`). */
import type { Child } from "hono/jsx";
import type { FormFields } from "../../pages/form";

/** The `id` of a field's input in the page. */
export const inputId = (name: string) => `s-${name.replace(/\./g, "-")}`;

/** A text input with its label and, when there is one, its problem. */
export function TextField(props: {
  name: string;
  label: string;
  value?: string;
  problem?: string;
  type?: string;
  autocomplete?: string;
  hint?: Child;
  /** A textarea instead of a one-line input. */
  multiline?: boolean;
  /** Heard by screen readers, not shown: where a legend names the group (a weekday's fields). */
  hiddenLabel?: boolean;
}) {
  const id = inputId(props.name);
  return (
    <div class="field">
      <label for={id} class={props.hiddenLabel ? "sr-only" : undefined}>
        {props.label}
      </label>
      {props.multiline ? (
        <textarea
          id={id}
          name={props.name}
          aria-invalid={props.problem ? "true" : undefined}
          aria-describedby={props.problem ? `${id}-err` : undefined}
        >
          {props.value ?? ""}
        </textarea>
      ) : (
        <input
          id={id}
          name={props.name}
          type={props.type ?? "text"}
          value={props.value ?? ""}
          autocomplete={props.autocomplete ?? "off"}
          aria-invalid={props.problem ? "true" : undefined}
          aria-describedby={props.problem ? `${id}-err` : undefined}
        />
      )}
      {props.problem && (
        <p class="err" id={`${id}-err`}>
          {props.problem}
        </p>
      )}
      {props.hint}
    </div>
  );
}

/** A checkbox with its label after it (sent as "on" when ticked, not sent when not). */
export function CheckField(props: { name: string; label: string; checked: boolean; hint?: Child }) {
  const id = inputId(props.name);
  return (
    <div class="tickbox">
      <input id={id} name={props.name} type="checkbox" value="on" checked={props.checked} />
      <label for={id}>{props.label}</label>
      {props.hint}
    </div>
  );
}

/** A select with its label and, when there is one, its problem. */
export function SelectField(props: {
  name: string;
  label: string;
  value?: string;
  options: readonly { value: string; label: string }[];
  problem?: string;
}) {
  const id = inputId(props.name);
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        aria-invalid={props.problem ? "true" : undefined}
        aria-describedby={props.problem ? `${id}-err` : undefined}
      >
        {props.options.map((o) => (
          <option value={o.value} selected={o.value === props.value}>
            {o.label}
          </option>
        ))}
      </select>
      {props.problem && (
        <p class="err" id={`${id}-err`}>
          {props.problem}
        </p>
      )}
    </div>
  );
}

/**
 * A setup form's fields bound to its values (as typed, or as stored) and its problems, each named
 * by the API's path: a refused form comes back as sent, every problem at its field.
 */
export function boundFields(f: FormFields, problems: Record<string, string>) {
  const check = (name: string, label: string) => <CheckField name={name} label={label} checked={name in f} />;
  return {
    text: (name: string, label: string, more: { type?: string; hint?: string; multiline?: boolean } = {}) => (
      <TextField
        name={name}
        label={label}
        value={f[name]}
        problem={problems[name]}
        type={more.type}
        multiline={more.multiline}
        hint={more.hint && <p class="muted small">{more.hint}</p>}
      />
    ),
    check,
    /** A select of `values`, each shown by its word in `labels` (else as itself). */
    select: (name: string, label: string, values: readonly string[], labels: Readonly<Record<string, string>>) => (
      <SelectField
        name={name}
        label={label}
        value={f[name]}
        problem={problems[name]}
        options={values.map((value) => ({ value, label: labels[value] ?? value }))}
      />
    ),
    /** One box per choice, named `{name}.{id}`, then the list's problem. */
    ticks: (name: string, choices: readonly { id: string; name: string }[]) => (
      <>
        {choices.map((choice) => check(`${name}.${choice.id}`, choice.name))}
        {problems[name] && <p class="err">{problems[name]}</p>}
      </>
    ),
  };
}

/** The page's notice: a flash of what was done (status) or why nothing was (alert). */
export function SetupNotice({ flash, refused, label }: { flash?: string; refused?: string; label: string }) {
  return (
    <>
      {flash && (
        <p class="flash" role="status">
          {flash}
        </p>
      )}
      {refused && (
        <p class="refused" role="alert">
          <strong>{label}:</strong> {refused}
        </p>
      )}
    </>
  );
}

/**
 * A row's remove button: a form posting `name=value` to `action`, the button heard as `label`
 * (it names the row; the button shows just `word`).
 */
export function RemoveButton(props: { action: string; name: string; value: string; word: string; label: string }) {
  return (
    <form method="post" action={props.action} class="inline">
      <input type="hidden" name={props.name} value={props.value} />
      <button class="btn ghost" type="submit" aria-label={props.label}>
        {props.word}
      </button>
    </form>
  );
}
