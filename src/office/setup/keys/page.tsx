/**
 * `/office/setup/api-keys`: the business's keys (name, how it starts, live or test, scopes,
 * created, revoked) with a button to the step revoking each live one, and the form making a new
 * one (with its attempt, so that it makes one key however often it is sent). The page
 * answering that form shows the new key this once; the list never does (only its prefix is kept).
 */
import type { toApiKey } from "../../../access/keys";
import type { FormFields } from "../../../pages/form";
import { scopes } from "../../../types/scopes";
import { AttemptField } from "../../frame/attempt";
import type { DeskContext } from "../../frame/desk";
import type { DeskStatus } from "../../frame/layout";
import { SelectField, TextField } from "../field";
import { setupPage, toSetup } from "../frame";
import { createdOn, ShownOnce, secretStyle, TickList } from "./parts";
import { type KeyWords, keyWordsOf } from "./words";

export type ApiKey = ReturnType<typeof toApiKey>;
export type KeysState = {
  flash?: string;
  refused?: string;
  problems?: Record<string, string>;
  /** The form as sent, when it comes back with problems. */
  sent?: FormFields;
  /** A key just made: its name and the key itself, shown this once. */
  created?: { name: string; key: string };
  /** The create form sent again: what it made before, said in words (the key is not shown again). */
  resent?: string;
};

/** One key of the list, with its revoke button while it is live. */
function KeyItem(props: { c: DeskContext; apiKey: ApiKey; kw: KeyWords }) {
  const { apiKey: k, kw } = props;
  const name = k.name ?? k.prefix;
  const every = k.scopes.length === scopes.length;
  return (
    <li>
      <p>
        <strong>{name}</strong> · <code>{k.prefix}…</code> · {k.mode === "test" ? kw.test : kw.live}
        {k.revokedAt && <span class="muted"> · {kw.revoked}</span>}
        <br />
        <span class="small">
          {kw.scopes}: {every ? kw.everyScope : k.scopes.join(", ")}
        </span>
        <br />
        <span class="muted small">
          {kw.created}: {createdOn(props.c, k.createdAt)}
        </span>
      </p>
      {!k.revokedAt && (
        <a class="btn ghost" href={`/office/setup/api-keys/${k.id}/revoke`} aria-label={`${kw.revoke}: ${name}`}>
          {kw.revoke}
        </a>
      )}
    </li>
  );
}

/** The API keys page. */
export function keysPage(c: DeskContext, keys: ApiKey[], state: KeysState = {}, status: DeskStatus = 200) {
  const kw = keyWordsOf(c.var.desk.locale);
  const problems = state.problems ?? {};
  const sent = state.sent ?? {};
  return setupPage(
    c,
    status,
    { title: kw.title, back: toSetup(c), flash: state.flash, refused: state.refused, positions: secretStyle },
    <>
      {state.resent && (
        <p class="notice" role="status">
          {state.resent}
        </p>
      )}
      {state.created && (
        <ShownOnce
          title={kw.shownOnce}
          text={kw.shownOnceText}
          label={kw.key(state.created.name)}
          secret={state.created.key}
        />
      )}
      <p class="muted">
        {kw.intro} <a href="/docs">{kw.apiLink}</a>
      </p>
      <section aria-labelledby="keys">
        <h2 id="keys">{kw.keys}</h2>
        {keys.length === 0 ? (
          <p class="muted">{kw.none}</p>
        ) : (
          <ul class="members">
            {keys.map((k) => (
              <KeyItem c={c} apiKey={k} kw={kw} />
            ))}
          </ul>
        )}
        <p class="muted small">{kw.revokeHint}</p>
      </section>
      <section aria-labelledby="addkey">
        <h2 id="addkey">{kw.add}</h2>
        <form method="post" action="/office/setup/api-keys" class="setupform">
          <AttemptField />
          <TextField name="name" label={kw.name} value={sent.name} problem={problems.name} />
          <TickList
            list="scopes"
            legend={kw.scopes}
            hint={kw.scopesHint}
            values={scopes}
            sent={sent}
            problem={problems.scopes}
          />
          <SelectField
            name="mode"
            label={kw.mode}
            value={sent.mode}
            problem={problems.mode}
            options={(["live", "test"] as const).map((v) => ({ value: v, label: kw.modes[v] ?? v }))}
          />
          <button class="btn" type="submit">
            {kw.create}
          </button>
        </form>
      </section>
    </>,
  );
}
