/**
 * Adding a passkey, the JSON half of `/office/passkeys` (page.tsx is the page): the passkey script
 * asks `POST /office/passkeys/options` for a challenge bound to this session, and posts the new
 * credential to `POST /office/passkeys`. Both answer problem+json, a 401 without a session.
 */
import { generateRegistrationOptions, verifyRegistrationResponse } from "@simplewebauthn/server";
import type { Context } from "hono";
import { issueChallenge, spendChallenge } from "../../access/passkey-challenges";
import { addPasskey, credentialIdsOf, MAX_PASSKEYS, passkeyCount } from "../../access/passkeys";
import { sessionCookie } from "../../access/session-cookie";
import { memberSessionOf, type SessionMember } from "../../access/sessions";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/api-error";
import { base64url } from "../../lib/crypto";
import { clientOf, fromBase64url, notVerified, RP_NAME, readJson, registrationBody, relyingParty } from "../webauthn";

/** The session's member, or a 401 for a JSON endpoint. */
async function requireMember(c: Context<AppEnv>): Promise<SessionMember> {
  const value = sessionCookie(c);
  const member = value ? await memberSessionOf(c.env, value) : undefined;
  if (!member) throw new ApiError("unauthorized", "Sign in at /office/sign-in first.");
  return member;
}

/** POST /office/passkeys/options: creation options whose challenge only this session may answer. */
export async function registrationOptions(c: Context<AppEnv>) {
  const member = await requireMember(c);
  const challenge = await issueChallenge(c.env, "register", clientOf(c), member.sessionId);
  if (!challenge) {
    throw new ApiError("rate_limited", "Too many passkey attempts in this session. Try again in 15 minutes.", {
      headers: { "Retry-After": "900" },
    });
  }
  const { rpID } = relyingParty(c);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: member.email,
    userDisplayName: member.name,
    // The user handle a sign-in hands back: the member's id.
    userID: new Uint8Array(new TextEncoder().encode(member.memberId)),
    challenge: fromBase64url(challenge),
    attestationType: "none",
    excludeCredentials: await credentialIdsOf(c.env, member.memberId),
    // Discoverable, so a sign-in needs no e-mail address first.
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  return c.json(options);
}

/** POST /office/passkeys `{name?, credential}`: verifies the new credential against this session's challenge and keeps it. */
export async function addPasskeyEndpoint(c: Context<AppEnv>) {
  const member = await requireMember(c);
  const { name, credential } = await readJson(c, registrationBody);
  const { rpID, origin } = relyingParty(c);
  const verification = await verifyRegistrationResponse({
    response: credential as never,
    expectedChallenge: (challenge) => spendChallenge(c.env, challenge, "register", member.sessionId),
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false,
  }).catch(() => undefined);
  if (!verification?.verified) throw notVerified();
  const { credential: made } = verification.registrationInfo;
  const owner = { memberId: member.memberId, businessId: member.businessId, shard: member.shard };
  const id = await addPasskey(c.env, owner, {
    credentialId: made.id,
    publicKey: base64url(made.publicKey),
    counter: made.counter,
    transports: (credential.response.transports ?? []).slice(0, 10),
    name: name || "Passkey",
  });
  if (!id) {
    const full = (await passkeyCount(c.env, member.memberId)) >= MAX_PASSKEYS;
    throw new ApiError(
      "validation_failed",
      full ? `A member has at most ${MAX_PASSKEYS} passkeys: remove one first.` : "This passkey is already added.",
      { errors: [{ path: "credential", message: full ? "Too many passkeys." : "Already added." }] },
    );
  }
  return c.json({ id, location: "/office/passkeys" }, 201);
}
