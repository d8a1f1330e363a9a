/**
 * `/office/sign-in`: the address form, its post (a link by e-mail, the same answer for any
 * address), the link's page (a button, so that mail scanners fetching the link do not spend it)
 * and the button's post, which starts the session.
 */
import type { Context } from "hono";
import { sessionCookie, setSessionCookie } from "../access/session-cookie";
import { endSession, startSession } from "../access/sessions";
import { redeemSignIn, requestSignIn } from "../access/sign-in-links";
import type { AppEnv } from "../env";
import { assetPaths } from "../pages/assets";
import { readForm } from "../pages/form";
import { officePage } from "./page";

const addressForm = (error?: string) => (
  <form method="post" action="/office/sign-in">
    <label for="email">E-mail address</label>
    <input id="email" name="email" type="email" autocomplete="email" required maxlength={254} />
    {error && <p role="alert">{error}</p>}
    <button type="submit">Send me a sign-in link</button>
  </form>
);

/** Signing in with a passkey: shown by the passkey script only where the browser can do it. */
const passkeyForm = () => (
  <>
    <form
      data-passkey="sign-in"
      data-options="/office/sign-in/passkey/options"
      data-finish="/office/sign-in/passkey"
      hidden
    >
      <button type="submit">Sign in with a passkey</button>
    </form>
    <p role="status" data-passkey-status />
  </>
);

/** GET /office/sign-in */
export const signInPage = (c: Context<AppEnv>) =>
  officePage(
    c,
    200,
    "Sign in",
    <>
      {addressForm()}
      {passkeyForm()}
    </>,
    assetPaths.passkeys,
  );

/** POST /office/sign-in: records the request under its bounds and queues the e-mails. */
export async function postSignIn(c: Context<AppEnv>) {
  const email = (await readForm(c)).email?.trim() ?? "";
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    return officePage(c, 422, "Sign in", addressForm("Enter an e-mail address such as ada@example.com."));
  }
  const client = c.req.header("CF-Connecting-IP") ?? "unknown";
  const { bounded, send } = await requestSignIn(c.env, email, client);
  if (bounded) {
    c.header("Retry-After", "900");
    return officePage(c, 429, "Sign in", <p>Too many sign-in links were asked for. Try again in 15 minutes.</p>);
  }
  for (const id of send) await c.env.DELIVERY_QUEUE.send({ eventId: "", signInLinkId: id });
  return officePage(
    c,
    200,
    "Check your e-mail",
    <p>If this address belongs to a member, a sign-in link is on its way. It is good for 15 minutes, once.</p>,
  );
}

/** GET /office/sign-in/link?token=…: a button that posts the token. Spends nothing. */
export function linkPage(c: Context<AppEnv>) {
  const token = c.req.query("token") ?? "";
  return officePage(
    c,
    200,
    "Sign in",
    <form method="post" action="/office/sign-in/link">
      <input type="hidden" name="token" value={token} />
      <button type="submit">Sign in</button>
    </form>,
  );
}

/**
 * POST /office/sign-in/link: spends the link and starts a new session. A cookie the browser
 * brought is ended and replaced, never adopted (no session fixation).
 */
export async function postLink(c: Context<AppEnv>) {
  const token = (await readForm(c)).token ?? "";
  const memberId = await redeemSignIn(c.env, token);
  const value = memberId ? await startSession(c.env, memberId) : undefined;
  if (!value) {
    return officePage(
      c,
      400,
      "This link does not work",
      <p>
        It was used already, is older than 15 minutes, or was never sent.{" "}
        <a href="/office/sign-in">Ask for a new one</a>.
      </p>,
    );
  }
  const before = sessionCookie(c);
  if (before) await endSession(c.env, before);
  setSessionCookie(c, value);
  return c.redirect("/office", 303);
}
