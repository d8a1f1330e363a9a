/** The frame every setup page shares: the office's page, a way back, the title and what the last post did. */
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
