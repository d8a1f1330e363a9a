/**
 * `/office/passkeys` and its removal form, past sign-in (desk.ts lets only a member's session
 * through): the page lists the member's own passkeys; `POST /office/passkeys/remove` (`id`)
 * removes one of them, audited with the member as actor — another member's, of this business or
 * another, is the office's 404 page and nothing changes. The JSON endpoints that add one are
 * ceremony.ts's, mounted by index.tsx.
 */
import { Hono } from "hono";
import { passkeysOf, removePasskey } from "../../access/passkeys";
import { readForm } from "../../pages/form";
import type { DeskEnv } from "../frame/desk";
import { deskProblem } from "../frame/layout";
import { passkeysPage } from "./page";
import { passkeyWordsOf } from "./words";

/** The passkeys page and its removal, mounted by desk.ts. */
export const passkeyRoutes = new Hono<DeskEnv>();

passkeyRoutes.get("/passkeys", async (c) => {
  const { member, locale } = c.var.desk;
  const done = c.req.query("done") === "removed" ? passkeyWordsOf(locale).removed : undefined;
  return passkeysPage(c, await passkeysOf(c.env, member.memberId), done);
});

passkeyRoutes.post("/passkeys/remove", async (c) => {
  const { member, locale } = c.var.desk;
  const id = (await readForm(c)).id ?? "";
  const owner = { memberId: member.memberId, businessId: member.businessId, shard: member.shard };
  if (!(await removePasskey(c.env, owner, id))) {
    const pw = passkeyWordsOf(locale);
    return deskProblem(c, 404, pw.noSuch, pw.noSuchText);
  }
  return c.redirect("/office/passkeys?done=removed", 303);
});
