/**
 * `/office`: the pages of the people who run the business (docs/members.md, docs/office.md):
 * signing in and out here, the day and the bookings in desk.ts. Every form post is checked to
 * come from this site (`Origin` / `Sec-Fetch-Site`: 403 otherwise, nothing changed).
 */
import { Hono } from "hono";
import { clearSessionCookie, sessionCookie } from "../access/session-cookie";
import { endSession } from "../access/sessions";
import type { AppEnv } from "../env";
import { sameOrigin } from "../middleware/security";
import { UnreadableForm } from "../pages/form";
import { deskApp } from "./desk";
import { officePage } from "./page";
import { passkeySignIn, signInOptions } from "./passkey-sign-in";
import { addPasskeyEndpoint, registrationOptions } from "./passkeys/ceremony";
import { linkPage, postLink, postSignIn, signInPage } from "./sign-in";
import { jsonEndpoint } from "./webauthn";

export const officeApp = new Hono<AppEnv>();

officeApp.use(async (c, next) => {
  if (c.req.method === "POST" && !sameOrigin(c.req.raw)) {
    return officePage(c, 403, "Refused", <p>This form can only be sent from this site's own pages.</p>);
  }
  await next();
});

officeApp.onError((error, c) => {
  if (error instanceof UnreadableForm) return officePage(c, error.status, "Refused", <p>{error.message}</p>);
  throw error;
});

officeApp.get("/sign-in", signInPage);
officeApp.post("/sign-in", postSignIn);
officeApp.get("/sign-in/link", linkPage);
officeApp.post("/sign-in/link", postLink);
officeApp.post("/sign-in/passkey/options", jsonEndpoint(signInOptions));
officeApp.post("/sign-in/passkey", jsonEndpoint(passkeySignIn));
officeApp.post("/passkeys/options", jsonEndpoint(registrationOptions));
officeApp.post("/passkeys", jsonEndpoint(addPasskeyEndpoint));

officeApp.post("/sign-out", async (c) => {
  const value = sessionCookie(c);
  if (value) await endSession(c.env, value);
  clearSessionCookie(c);
  return c.redirect("/office/sign-in", 303);
});

// Past sign-in: the day, bookings, setup, the passkeys page (src/office/desk.ts).
officeApp.route("/", deskApp);
