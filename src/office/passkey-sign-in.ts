/**
 * Signing in with a passkey at `/office/sign-in` (docs/members.md, "Passkeys"): the passkey script
 * asks `POST /office/sign-in/passkey/options` for a challenge (no credentials listed: the browser
 * offers the passkeys it holds for this site), and posts the signature to `POST
 * /office/sign-in/passkey`, which starts a session exactly as the e-mail link's button does.
 */
import { generateAuthenticationOptions, verifyAuthenticationResponse } from "@simplewebauthn/server";
import type { Context } from "hono";
import { issueChallenge, spendChallenge } from "../access/passkey-challenges";
import { notePasskeyUse, passkeyForSignIn } from "../access/passkeys";
import { sessionCookie, setSessionCookie } from "../access/session-cookie";
import { endSession, startSession } from "../access/sessions";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/api-error";
import { authenticationBody, clientOf, fromBase64url, notVerified, readJson, relyingParty } from "./webauthn";

/** The member id a user handle carries; undefined for one that is not base64url of text. */
function userOf(handle: string): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(fromBase64url(handle));
  } catch {
    return undefined;
  }
}

/** POST /office/sign-in/passkey/options: a challenge for anyone, at most 30 per client in 15 minutes. */
export async function signInOptions(c: Context<AppEnv>) {
  const challenge = await issueChallenge(c.env, "sign-in", clientOf(c), null);
  if (!challenge) {
    throw new ApiError("rate_limited", "Too many sign-in attempts from here. Try again in 15 minutes.", {
      headers: { "Retry-After": "900" },
    });
  }
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(c).rpID,
    challenge: fromBase64url(challenge),
    userVerification: "preferred",
  });
  return c.json(options);
}

/**
 * POST /office/sign-in/passkey `{credential}`: verifies the signature of a sign-in challenge by a
 * passkey whose member is not disabled, moves its counter on, and starts a new session — any
 * cookie the browser brought is ended and replaced, never adopted. 422 for anything that does not
 * verify, with nothing changed but the challenge, which is spent either way.
 */
export async function passkeySignIn(c: Context<AppEnv>) {
  const { credential } = await readJson(c, authenticationBody);
  const passkey = await passkeyForSignIn(c.env, credential.id);
  if (!passkey) throw notVerified();
  // The user handle, when the authenticator gives one, is the id the passkey was made for.
  const handle = credential.response.userHandle;
  if (handle !== undefined && userOf(handle) !== passkey.memberId) throw notVerified();
  const { rpID, origin } = relyingParty(c);
  const verification = await verifyAuthenticationResponse({
    response: credential as never,
    expectedChallenge: (challenge) => spendChallenge(c.env, challenge, "sign-in", null),
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: {
      id: credential.id,
      publicKey: fromBase64url(passkey.publicKey),
      counter: passkey.counter,
      transports: passkey.transports as never,
    },
    requireUserVerification: false,
  }).catch(() => undefined);
  if (!verification?.verified) throw notVerified();
  const value = await startSession(c.env, passkey.memberId);
  if (!value) throw notVerified();
  await notePasskeyUse(c.env, passkey.id, verification.authenticationInfo.newCounter);
  const before = sessionCookie(c);
  if (before) await endSession(c.env, before);
  setSessionCookie(c, value);
  return c.json({ location: "/office" });
}
