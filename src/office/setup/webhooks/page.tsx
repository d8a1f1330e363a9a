/**
 * `/office/setup/webhooks`: the business's endpoints (address, events, status, created) with a
 * button to the step deleting each, and the form registering a new one (with its attempt, so that
 * it registers one endpoint however often it is sent). The page answering that form shows
 * the endpoint's signing secret this once; the list never does.
 */

import { webhookEventTypes } from "../../../types/webhook";
import type { toWebhook } from "../../../webhooks/endpoints";
import type { DeskContext } from "../../frame/desk";
import type { DeskStatus } from "../../frame/layout";
import { TextField } from "../field";
import { createdOn, type SecretsState, secretsPage, TickList } from "../keys/parts";
import { type WebhookWords, webhookWordsOf } from "./words";

export type Webhook = ReturnType<typeof toWebhook>;
/** What the page says besides the list; `created` is an endpoint just registered: its address and signing secret. */
export type WebhooksState = SecretsState<{ url: string; secret: string }>;

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
  const { created } = state;
  return secretsPage(c, status, state, {
    title: ww.title,
    intro: ww.intro,
    apiLink: ww.apiLink,
    positions: ".secret-url{word-break:break-all}",
    shown: created && {
      title: ww.shownOnce,
      text: ww.shownOnceText,
      label: ww.secretOf(created.url),
      secret: created.secret,
    },
    list: {
      heading: ww.endpoints,
      none: ww.none,
      hint: ww.removeHint,
      items: hooks.map((hook) => <EndpointItem c={c} hook={hook} ww={ww} />),
    },
    add: {
      heading: ww.add,
      action: "/office/setup/webhooks",
      button: ww.create,
      fields: (
        <>
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
        </>
      ),
    },
  });
}
