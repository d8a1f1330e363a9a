/**
 * `/office/setup/api-keys`: the business's keys (name, how it starts, live or test, scopes,
 * created, revoked) with a button to the step revoking each live one, and the form making a new
 * one (with its attempt, so that it makes one key however often it is sent). The page
 * answering that form shows the new key this once; the list never does (only its prefix is kept).
 */
import type { toApiKey } from "../../../access/keys";
import { scopes } from "../../../types/scopes";
import type { DeskContext } from "../../frame/desk";
import type { DeskStatus } from "../../frame/layout";
import { SelectField, TextField } from "../field";
import { createdOn, type SecretsState, secretsPage, TickList } from "./parts";
import { type KeyWords, keyWordsOf } from "./words";

export type ApiKey = ReturnType<typeof toApiKey>;
/** What the page says besides the list; `created` is a key just made: its name and the key itself. */
export type KeysState = SecretsState<{ name: string; key: string }>;

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
  const { created } = state;
  return secretsPage(c, status, state, {
    title: kw.title,
    intro: kw.intro,
    apiLink: kw.apiLink,
    shown: created && {
      title: kw.shownOnce,
      text: kw.shownOnceText,
      label: kw.key(created.name),
      secret: created.key,
    },
    list: {
      heading: kw.keys,
      none: kw.none,
      hint: kw.revokeHint,
      items: keys.map((k) => <KeyItem c={c} apiKey={k} kw={kw} />),
    },
    add: {
      heading: kw.add,
      action: "/office/setup/api-keys",
      button: kw.create,
      fields: (
        <>
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
        </>
      ),
    },
  });
}
