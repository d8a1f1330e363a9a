/**
 * `/office/passkeys`: the signed-in member's passkeys — the list (name, added, last used), removal
 * (a plain form), and adding one (the passkey script asks `POST /office/passkeys/options` for a
 * challenge bound to this session, and posts the new credential to `POST /office/passkeys`).
 */
import { generateRegistrationOptions, verifyRegistrationResponse } from "@simplewebauthn/server";
import type { Context } from "hono";
import { issueChallenge, spendChallenge } from "../access/passkey-challenges";
import { addPasskey, credentialIdsOf, MAX_PASSKEYS, passkeyCount, passkeysOf, removePasskey } from "../access/passkeys";
import { sessionCookie } from "../access/session-cookie";
import { memberSessionOf, type SessionMember } from "../access/sessions";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/api-error";
import { base64url } from "../lib/crypto";
import { assetPaths } from "../pages/assets";
import { readForm } from "../pages/form";
import { officePage } from "./page";
import { clientOf, fromBase64url, notVerified, RP_NAME, readJson, registrationBody, relyingParty } from "./webauthn";

/** The member of the request's session, if it has a live one. */
async function sessionMember(c: Context<AppEnv>): Promise<SessionMember | undefined> {
  const value = sessionCookie(c);
  return value ? memberSessionOf(c.env, value) : undefined;
}

/** The session's member, or a 401 for a JSON endpoint. */
async function requireMember(c: Context<AppEnv>): Promise<SessionMember> {
  const member = await sessionMember(c);
  if (!member) throw new ApiError("unauthorized", "Sign in at /office/sign-in first.");
  return member;
}

const when = (at: string | null) =>
  at ? <time datetime={at}>{`${at.slice(0, 10)} ${at.slice(11, 16)} UTC`}</time> : "never";

/** GET /office/passkeys */
export async function passkeysPage(c: Context<AppEnv>) {
  const member = await sessionMember(c);
  if (!member) return c.redirect("/office/sign-in", 303);
  const list = await passkeysOf(c.env, member.memberId);
  const body = (
    <>
      <p>A passkey signs you in with this device's screen lock or a security key, instead of an e-mail link.</p>
      {list.length === 0 ? (
        <p>You have no passkeys yet.</p>
      ) : (
        <table>
          <caption>Your passkeys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Added</th>
              <th scope="col">Last used</th>
              <th scope="col">Remove</th>
            </tr>
          </thead>
          <tbody>
            {list.map((key) => (
              <tr>
                <td>{key.name}</td>
                <td>{when(key.createdAt)}</td>
                <td>{when(key.lastUsedAt)}</td>
                <td>
                  <form method="post" action="/office/passkeys/remove">
                    <input type="hidden" name="id" value={key.id} />
                    <button type="submit" aria-label={`Remove ${key.name}`}>
                      Remove
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form data-passkey="add" data-options="/office/passkeys/options" data-finish="/office/passkeys" hidden>
        <label for="passkey-name">Name of the new passkey (optional)</label>
        <input id="passkey-name" name="name" maxlength={60} autocomplete="off" />
        <button type="submit">Add a passkey</button>
      </form>
      <noscript>
        <p>Adding a passkey needs JavaScript.</p>
      </noscript>
      <p role="status" data-passkey-status />
      <p>
        <a href="/office">Back to the office</a>
      </p>
    </>
  );
  return officePage(c, 200, "Passkeys", body, assetPaths.passkeys);
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

/** POST /office/passkeys/remove (a form): removes one of the member's own passkeys; another's is a 404. */
export async function removePasskeyForm(c: Context<AppEnv>) {
  const member = await sessionMember(c);
  if (!member) return c.redirect("/office/sign-in", 303);
  const id = (await readForm(c)).id ?? "";
  const owner = { memberId: member.memberId, businessId: member.businessId, shard: member.shard };
  if (!(await removePasskey(c.env, owner, id))) {
    return officePage(
      c,
      404,
      "No such passkey",
      <p>
        You have no passkey by that name. <a href="/office/passkeys">Your passkeys</a>.
      </p>,
    );
  }
  return c.redirect("/office/passkeys", 303);
}
