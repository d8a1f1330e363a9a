/**
 * The frame every setup page shares: the office's page, a way back, the title and what the last
 * post did; and the step that asks before a change no one can take back.
 */
import type { Child } from "hono/jsx";
import type { DeskContext } from "../frame/desk";
import { type DeskStatus, deskPage } from "../frame/layout";
import { SetupNotice } from "./field";
import { setupWords } from "./guard";
import { setupStyle } from "./style";

/** What a setup page says above its body; `back` absent shows no way back (a staff member's own page). */
export type SetupHead = {
  title: string;
  back?: { href: string; label: string };
  flash?: string;
  refused?: string;
  /** The page's own rules for its nonce'd style (the setup's by default). */
  positions?: string;
};

/** Answers a setup page: the frame, `head`, then `body`. */
export function setupPage(c: DeskContext, status: DeskStatus, head: SetupHead, body: Child) {
  return deskPage(c, status, {
    title: head.title,
    section: "setup",
    positions: head.positions ?? setupStyle,
    body: (
      <div class="stack">
        {head.back && (
          <p class="small">
            <a href={head.back.href}>← {head.back.label}</a>
          </p>
        )}
        <h1>{head.title}</h1>
        <SetupNotice flash={head.flash} refused={head.refused} label={setupWords(c).refused} />
        {body}
      </div>
    ),
  });
}

/** The way back to the setup's index. */
export const toSetup = (c: DeskContext) => ({ href: "/office/setup", label: setupWords(c).back });

/** What a confirmation step says: the question, what the change does, and the post that makes it. */
export type ConfirmStep = {
  title: string;
  text: string;
  /** The post that makes the change; absent when there is nothing left to do (already revoked). */
  action?: string;
  /** The post's button. */
  confirm: string;
  /** The list the step came from, where Cancel goes back to. */
  back: { href: string; label: string };
};

/**
 * The page between a list's button and a change that cannot be undone: it names the thing, says
 * what the change does, and offers the post that makes it or the way back. A plain form and a
 * link: no JavaScript needed.
 */
export function confirmPage(c: DeskContext, step: ConfirmStep) {
  return setupPage(
    c,
    200,
    // The title names the thing, an endpoint's address too: it wraps anywhere rather than widen a phone.
    { title: step.title, back: step.back, positions: `${setupStyle}\nh1{overflow-wrap:anywhere}` },
    <>
      <p>{step.text}</p>
      {step.action ? (
        <form method="post" action={step.action} class="row">
          <button class="btn danger" type="submit">
            {step.confirm}
          </button>
          <a class="btn ghost" href={step.back.href}>
            {setupWords(c).cancel}
          </a>
        </form>
      ) : (
        <p>
          <a class="btn ghost" href={step.back.href}>
            {step.back.label}
          </a>
        </p>
      )}
    </>,
  );
}
