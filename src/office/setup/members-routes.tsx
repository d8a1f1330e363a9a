/**
 * `/office/setup/members` and its form posts, each the API's own function after the same scope
 * check (`members:write`: owners): the invitation is `POST /members`'s createMember — which sends
 * no e-mail: the invited member asks for their sign-in link at `/office/sign-in` — and role and
 * status are `PATCH /members/{id}`'s updateMember, with its last-owner rule (409 on the page).
 */

import { Hono } from "hono";
import { actorOf } from "../../access/actor";
import { updateMember } from "../../access/member-changes";
import { createMember, MAX_MEMBERS, memberPage } from "../../access/members";
import { ApiError } from "../../lib/api-error";
import { readForm } from "../../pages/form";
import type { DeskContext, DeskEnv } from "../frame/desk";
import { flashOf } from "../frame/flash";
import type { DeskStatus } from "../frame/layout";
import { problemsIn, sentenceIn } from "../frame/problems";
import { setupRefusal, setupWords } from "./guard";
import { type MembersState, membersPage } from "./members-page";
import { providersOf } from "./providers";
import { Invitation, MemberChange } from "./schemas";

/** The members page and its actions, mounted by routes.tsx. */
export const memberRoutes = new Hono<DeskEnv>();

async function show(c: DeskContext, state: MembersState, status: DeskStatus = 200) {
  const { items } = await memberPage(c.env, c.var.caller.businessId, { page: 1, limit: MAX_MEMBERS });
  return membersPage(c, { members: items, people: await providersOf(c) }, state, status);
}

memberRoutes.get("/setup/members", async (c) => {
  const denied = await setupRefusal(c, "members:write", "GET /members");
  if (denied) return denied;
  return show(c, { flash: flashOf(c, setupWords(c).member.saved) });
});

/** A refused change as the page: its problems by field, and its reason (409 for a conflict such as last_owner). */
function refused(c: DeskContext, error: unknown, state: MembersState) {
  if (!(error instanceof ApiError) || error.status === 404 || error.status >= 500) throw error;
  const problems: Record<string, string> = {};
  const { locale } = c.var.desk;
  for (const e of error.errors ?? []) problems[e.path] ??= sentenceIn(locale, e.message);
  const status = error.status === 409 ? 409 : 422;
  return show(c, { ...state, problems, refused: sentenceIn(locale, error.message) }, status);
}

memberRoutes.post("/setup/members", async (c) => {
  const denied = await setupRefusal(c, "members:write", "POST /members");
  if (denied) return denied;
  const invite = await readForm(c);
  const role = invite.role ?? "";
  const body = {
    name: (invite.name ?? "").trim(),
    email: (invite.email ?? "").trim(),
    role,
    ...(role === "staff" ? { providerId: invite.providerId ?? "" } : {}),
  };
  const parsed = Invitation.safeParse(body);
  try {
    if (!parsed.success) {
      throw new ApiError("validation_failed", setupWords(c).fixBelow, {
        errors: problemsIn(c.var.desk.locale, parsed.error),
      });
    }
    await createMember(c.env, c.var.db, c.var.caller.businessId, parsed.data, actorOf(c.var.caller));
  } catch (error) {
    return refused(c, error, { invite });
  }
  return c.redirect("/office/setup/members?done=invited", 303);
});

/** Runs `PATCH /members/{id}` with `patch` (checked by its schema), then 303 back with `done`. */
async function change(c: DeskContext, patch: Record<string, unknown>, done: string) {
  const id = c.req.param("id") ?? "";
  const denied = await setupRefusal(c, "members:write", "PATCH /members/:id", id);
  if (denied) return denied;
  try {
    const parsed = MemberChange.safeParse(patch);
    if (!parsed.success) {
      throw new ApiError("validation_failed", setupWords(c).fixBelow, {
        errors: problemsIn(c.var.desk.locale, parsed.error),
      });
    }
    await updateMember(c.env, c.var.db, c.var.caller.businessId, id, parsed.data, undefined, actorOf(c.var.caller));
  } catch (error) {
    return refused(c, error, {});
  }
  return c.redirect(`/office/setup/members?done=${done}`, 303);
}

memberRoutes.post("/setup/members/:id/role", async (c) => {
  const form = await readForm(c);
  const role = form.role ?? "";
  return change(c, { role, providerId: role === "staff" ? form.providerId || null : null }, "role");
});

memberRoutes.post("/setup/members/:id/status", async (c) => {
  const status = (await readForm(c)).status ?? "";
  return change(c, { status }, status === "disabled" ? "disabled" : "enabled");
});
