/**
 * `/office/setup/webhooks`: the business's endpoints (address, events, status, created) with a
 * button to the step deleting each, and the form registering a new one (with its attempt, so that
 * it registers one endpoint however often it is sent). The page answering that form shows
 * the endpoint's signing secret this once; the list never does.
 */

import type { FormFields } from "../../../pages/form";
import { webhookEventTypes } from "../../../types/webhook";
import type { toWebhook } from "../../../webhooks/endpoints";
import { AttemptField } from "../../frame/attempt";
import type { DeskContext } from "../../frame/desk";
import type { DeskStatus } from "../../frame/layout";
import { TextField } from "../field";
import { setupPage, toSetup } from "../frame";
import { createdOn, ShownOnce, secretStyle, TickList } from "../keys/parts";
import { type WebhookWords, webhookWordsOf } from "./words";

export type Webhook = ReturnType<typeof toWebhook>;
export type WebhooksState = {
  flash?: string;
  refused?: string;
  problems?: Record<string, string>;
  /** The form as sent, when it comes back with problems. */
  sent?: FormFields;
  /** An endpoint just registered: its address and signing secret, shown this once. */
  created?: { url: string; secret: string };
  /** The register form sent again: what it registered before, said in words (the secret is not shown again). */
  resent?: string;
};

/** One endpoint of the list, with its delete button. */
function EndpointItem(props: { c: DeskContext; hook: Webhook; ww: WebhookWords }) {
  const { hook, ww } = props;
  return (
    <li>
      <p>
        <strong class="secret-url">{hook.url}</strong> · {ww.statuses[hook.status] ?? hook.status}
        {hook.disabledReason && <span class="muted"> ({hook.disabledReason})</span>}
        {hook.description && (
          <>
            <br />
            {hook.description}
          </>
        )}
        <br />
        <span class="small">
          {ww.events}: {hook.events.join(", ")}
        </span>
        <br />
        <span class="muted small">
          {ww.created}: {createdOn(props.c, hook.createdAt)}
        </span>
      </p>
      <a class="btn ghost" href={`/office/setup/webhooks/${hook.id}/delete`} aria-label={`${ww.remove}: ${hook.url}`}>
        {ww.remove}
      </a>
    </li>
  );
}

/** The webhooks page. */
export function webhooksPage(c: DeskContext, hooks: Webhook[], state: WebhooksState = {}, status: DeskStatus = 200) {
  const ww = webhookWordsOf(c.var.desk.locale);
  const problems = state.problems ?? {};
  const sent = state.sent ?? {};
  return setupPage(
    c,
    status,
    {
      title: ww.title,
      back: toSetup(c),
      flash: state.flash,
      refused: state.refused,
      positions: `${secretStyle}\n.secret-url{word-break:break-all}`,
    },
    <>
      {state.resent && (
        <p class="notice" role="status">
          {state.resent}
        </p>
      )}
      {state.created && (
        <ShownOnce
          title={ww.shownOnce}
          text={ww.shownOnceText}
          label={ww.secretOf(state.created.url)}
          secret={state.created.secret}
        />
      )}
      <p class="muted">
        {ww.intro} <a href="/docs">{ww.apiLink}</a>
      </p>
      <section aria-labelledby="endpoints">
        <h2 id="endpoints">{ww.endpoints}</h2>
        {hooks.length === 0 ? (
          <p class="muted">{ww.none}</p>
        ) : (
          <ul class="members">
            {hooks.map((hook) => (
              <EndpointItem c={c} hook={hook} ww={ww} />
            ))}
          </ul>
        )}
        <p class="muted small">{ww.removeHint}</p>
      </section>
      <section aria-labelledby="addhook">
        <h2 id="addhook">{ww.add}</h2>
        <form method="post" action="/office/setup/webhooks" class="setupform">
          <AttemptField />
          <TextField
            name="url"
            type="url"
            label={ww.url}
            value={sent.url}
            problem={problems.url}
            hint={<p class="muted small">{ww.urlHint}</p>}
          />
          <TextField
            name="description"
            label={ww.description}
            value={sent.description}
            problem={problems.description}
          />
          <TickList
            list="events"
            legend={ww.events}
            hint={ww.eventsHint}
            values={webhookEventTypes}
            sent={sent}
            problem={problems.events}
          />
          <button class="btn" type="submit">
            {ww.create}
          </button>
        </form>
      </section>
    </>,
  );
}
