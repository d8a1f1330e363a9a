/**
 * Passkeys at /office: adding one (a challenge bound to the session), signing in with one (a
 * session started as the e-mail link starts it), removing one, and the attacks on each — with a
 * software authenticator, so the server's real WebAuthn verification runs.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { passkeys } from "../../src/db/schema";
import { memberOf } from "../support/access";
import { api, createAccount, directoryDb, json, problem, validationError } from "../support/api";
import { asMember, cookieOf, office, signIn } from "../support/members";
import { officeJson, SoftPasskey } from "../support/passkeys";

const unique = (name: string) => `${name}.${crypto.randomUUID().slice(0, 8)}@example.com`;

/** A business with a signed-in owner: the owner's key, member, address and session cookie. */
async function ownerSignedIn(name = "Olivia Owner") {
  const { apiKey } = await createAccount();
  const email = unique("owner");
  const member = await memberOf(apiKey, { role: "owner", email, name });
  return { apiKey, member, email, cookie: await signIn(email) };
}

/** Options to add a passkey for the session, and the authenticator's answer to them. */
async function registration(cookie: string, soft = new SoftPasskey()) {
  const options = await json(await officeJson("/office/passkeys/options", {}, { cookie }));
  return { soft, options, body: { name: "Work laptop", credential: await soft.register(options) } };
}

/** Adds a passkey for the session through the real endpoints. */
async function addPasskey(cookie: string) {
  const { soft, options, body } = await registration(cookie);
  const res = await officeJson("/office/passkeys", body, { cookie });
  expect(res.status).toBe(201);
  return { soft, options, added: await json(res) };
}

/** A signed answer to fresh sign-in options. */
async function assertion(soft: SoftPasskey, userHandle?: string) {
  const options = await json(await officeJson("/office/sign-in/passkey/options", {}));
  return { credential: await soft.sign(options, userHandle) };
}

const rowsOf = (memberId: string) => directoryDb().select().from(passkeys).where(eq(passkeys.memberId, memberId));

const auditOf = async (apiKey: string, id: string) =>
  (await json(await api("GET", `/audit-events?resourceId=${id}`, { key: apiKey }))).data as {
    action: string;
    actor: unknown;
    fields: string[];
  }[];

describe("passkeys", () => {
  it("a member adds a passkey, sees it listed, and signs in with it into a new session", async () => {
    const { apiKey, member, email, cookie } = await ownerSignedIn();
    const { soft, options, added } = await addPasskey(cookie);
    expect(options.rp.id).toBe("api.test");
    expect(options.authenticatorSelection.residentKey).toBe("required");
    expect(added.id).toMatch(/^psk_/);
    const page = await (await office("GET", "/office/passkeys", { cookie })).text();
    expect(page).toContain("Work laptop");
    const script = /<script src="(\/book\/_assets\/passkeys\.[a-z0-9]+\.js)"/.exec(page)?.[1] as string;
    const served = await office("GET", script);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toMatch(/^text\/javascript/);
    expect(await served.text()).toContain("parseCreationOptionsFromJSON");
    // The sign-in page offers a passkey (hidden until the script finds WebAuthn) and may call its JSON.
    const signInPage = await office("GET", "/office/sign-in");
    expect(await signInPage.text()).toMatch(/<form data-passkey="sign-in"[^>]* hidden/);
    expect(signInPage.headers.get("Content-Security-Policy")).toContain("connect-src 'self'");

    const signInOptions = await json(await officeJson("/office/sign-in/passkey/options", {}));
    expect(signInOptions.rpId).toBe("api.test");
    expect(signInOptions.allowCredentials ?? []).toEqual([]);
    const before = await signIn(email);
    const signedIn = await officeJson("/office/sign-in/passkey", await assertion(soft), { cookie: before });
    expect(signedIn.status).toBe(200);
    expect(await json(signedIn)).toEqual({ location: "/office" });
    const session = cookieOf(signedIn) as string;
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The cookie brought along is ended, never adopted; the new one is the member's session.
    expect((await asMember("GET", "/members", before)).status).toBe(401);
    expect(await (await office("GET", "/office", { cookie: session })).text()).toContain("Olivia Owner");
    const [row] = await rowsOf(member.id);
    expect(row?.counter).toBe(1);
    expect(row?.lastUsedAt).not.toBeNull();
    expect(await (await office("GET", "/office/passkeys", { cookie: session })).text()).not.toContain(
      "Last used: never",
    );

    const [record] = await auditOf(apiKey, added.id);
    expect(record).toMatchObject({ action: "passkey.added", actor: { type: "member", id: member.id } });
    expect(record?.fields).toEqual(["name", "publicKey", "transports"]);
  });

  it("the page is the office's, its times in the business's zone and the member's language", async () => {
    const { apiKey, member, cookie } = await ownerSignedIn();
    expect((await api("PATCH", "/business", { key: apiKey, body: { timezone: "Asia/Tokyo" } })).status).toBe(200);
    await addPasskey(cookie);
    const [row] = await rowsOf(member.id);
    const added = row?.createdAt as string;
    const style = { weekday: "long", day: "numeric", month: "long", year: "numeric" } as const;
    const inZone = (locale: string) =>
      new Intl.DateTimeFormat(locale, { ...style, hour: "numeric", minute: "2-digit", timeZone: "Asia/Tokyo" }).format(
        new Date(added),
      );
    const english = await (await office("GET", "/office/passkeys", { cookie })).text();
    // The office's frame: the bar naming the member, the nav with this page marked as the current one.
    expect(english).toContain("Olivia Owner · Owner");
    expect(english).toMatch(/<a href="\/office\/passkeys" aria-current="page">Passkeys<\/a>/);
    expect(english).toContain(`<time datetime="${added}">${inZone("en")}</time>`);
    expect(english).toContain("Times in Asia/Tokyo");
    expect(english).toContain("Last used: never");
    expect(english).not.toContain(" UTC<");
    const german = await (
      await office("GET", "/office/passkeys", { cookie, headers: { "Accept-Language": "de" } })
    ).text();
    expect(german).toContain('<html lang="de">');
    expect(german).toContain(`<time datetime="${added}">${inZone("de")}</time>`);
    for (const text of [
      "Ihre Passkeys",
      "Hinzugefügt",
      "Zuletzt verwendet",
      "Zuletzt verwendet: nie",
      "Passkey hinzufügen",
    ]) {
      expect(german, text).toContain(text);
    }
    expect(german).toContain('data-busy="Folgen Sie den Schritten Ihres Browsers');
  });

  it("without a session: the options and the add are 401, the page sends to sign-in", async () => {
    await problem(await officeJson("/office/passkeys/options", {}), 401, "unauthorized");
    const credential = await new SoftPasskey().register({ challenge: "x".repeat(43), user: { id: "bWJy" } });
    await problem(await officeJson("/office/passkeys", { credential }), 401, "unauthorized");
    for (const [method, path] of [
      ["GET", "/office/passkeys"],
      ["POST", "/office/passkeys/remove"],
    ] as const) {
      const page = await office(method, path, method === "POST" ? { form: { id: "psk_x" } } : {});
      expect(page.status, path).toBe(303);
      expect(page.headers.get("Location"), path).toBe("/office/sign-in");
    }
  });

  it("a replayed or foreign challenge is refused, and nothing is added", async () => {
    const a = await ownerSignedIn();
    const b = await ownerSignedIn();
    const first = await registration(a.cookie);
    expect((await officeJson("/office/passkeys", first.body, { cookie: a.cookie })).status).toBe(201);
    // The same answer again, and another credential answering the spent challenge.
    await validationError(await officeJson("/office/passkeys", first.body, { cookie: a.cookie }), "credential");
    const late = { credential: await new SoftPasskey().register(first.options) };
    await validationError(await officeJson("/office/passkeys", late, { cookie: a.cookie }), "credential");
    // Another member's session answering A's challenge.
    const stolen = await registration(a.cookie);
    await validationError(await officeJson("/office/passkeys", stolen.body, { cookie: b.cookie }), "credential");
    // A sign-in's challenge adds no passkey.
    const signInOptions = await json(await officeJson("/office/sign-in/passkey/options", {}));
    const wrongKind = await new SoftPasskey().register({ challenge: signInOptions.challenge, user: { id: "eA" } });
    await validationError(
      await officeJson("/office/passkeys", { credential: wrongKind }, { cookie: a.cookie }),
      "credential",
    );
    expect(await rowsOf(a.member.id)).toHaveLength(1);
    expect(await rowsOf(b.member.id)).toEqual([]);
    // The challenge the other session failed to use still works for its own.
    expect((await officeJson("/office/passkeys", stolen.body, { cookie: a.cookie })).status).toBe(201);
    expect(await rowsOf(a.member.id)).toHaveLength(2);
  });

  it("a sign-in's answer works once; another challenge's or another key's signs nobody in", async () => {
    const { member, cookie } = await ownerSignedIn();
    const { soft } = await addPasskey(cookie);
    const answer = await assertion(soft);
    expect((await officeJson("/office/sign-in/passkey", answer)).status).toBe(200);
    const replayed = await officeJson("/office/sign-in/passkey", answer);
    await validationError(replayed, "credential");
    expect(replayed.headers.get("Set-Cookie")).toBeNull();
    // An adding challenge does not sign in.
    const adding = await json(await officeJson("/office/passkeys/options", {}, { cookie }));
    await validationError(
      await officeJson("/office/sign-in/passkey", { credential: await soft.sign(adding) }),
      "credential",
    );
    // Another key signing in the passkey's name.
    const other = new SoftPasskey();
    await other.register({ challenge: "x", user: { id: soft.userHandle } });
    const forged = await assertion(other);
    forged.credential.id = soft.id;
    forged.credential.rawId = soft.id;
    await validationError(await officeJson("/office/sign-in/passkey", forged), "credential");
    const [row] = await rowsOf(member.id);
    expect(row?.counter).toBe(1);
  });

  it("a member keeps at most 10 passkeys: the 11th is a 422 and is not kept", async () => {
    const { member, cookie } = await ownerSignedIn();
    for (let i = 0; i < 10; i++) await addPasskey(cookie);
    const { body } = await registration(cookie);
    const entry = await validationError(await officeJson("/office/passkeys", body, { cookie }), "credential");
    expect(entry.message).toBe("Too many passkeys.");
    expect(await rowsOf(member.id)).toHaveLength(10);
  });

  it("only its own member removes a passkey: another member's removal is a 404 and changes nothing", async () => {
    const a = await ownerSignedIn();
    const { added } = await addPasskey(a.cookie);
    const colleague = await memberOf(a.apiKey, { role: "owner", email: unique("colleague") });
    const stranger = await ownerSignedIn("Someone Else");
    for (const cookie of [await signIn(colleague.email), stranger.cookie]) {
      const res = await office("POST", "/office/passkeys/remove", { cookie, form: { id: added.id } });
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("No such passkey");
    }
    expect(await rowsOf(a.member.id)).toHaveLength(1);
    const removed = await office("POST", "/office/passkeys/remove", { cookie: a.cookie, form: { id: added.id } });
    expect(removed.status).toBe(303);
    expect(removed.headers.get("Location")).toBe("/office/passkeys?done=removed");
    expect(await (await office("GET", "/office/passkeys?done=removed", { cookie: a.cookie })).text()).toContain(
      "Passkey removed.",
    );
    expect(await rowsOf(a.member.id)).toEqual([]);
    expect((await auditOf(a.apiKey, added.id)).map((r) => r.action)).toEqual(["passkey.removed", "passkey.added"]);
  });

  it("a post from another site is a 403 and changes nothing", async () => {
    const { member, cookie } = await ownerSignedIn();
    const { soft, added } = await addPasskey(cookie);
    const crossSite = { "Sec-Fetch-Site": "cross-site" };
    const { body } = await registration(cookie);
    for (const [path, sent] of [
      ["/office/passkeys/options", {}],
      ["/office/passkeys", body],
      ["/office/sign-in/passkey/options", {}],
      ["/office/sign-in/passkey", await assertion(soft)],
    ] as const) {
      const res = await officeJson(path, sent, { cookie, headers: crossSite });
      expect(res.status, path).toBe(403);
      expect(res.headers.get("Set-Cookie"), path).toBeNull();
    }
    const res = await office("POST", "/office/passkeys/remove", { cookie, form: { id: added.id }, headers: crossSite });
    expect(res.status).toBe(403);
    const [row] = await rowsOf(member.id);
    expect(row).toMatchObject({ id: added.id, counter: 0 });
    expect(await rowsOf(member.id)).toHaveLength(1);
  });

  it("a passkey signs in only its own member of its own business, and no one once they are disabled", async () => {
    const a = await ownerSignedIn();
    const { soft } = await addPasskey(a.cookie);
    // The same address is a member of another business: the passkey still signs in to the first.
    const other = await createAccount();
    const twin = await memberOf(other.apiKey, { role: "owner", email: a.email }, true);
    const res = await officeJson("/office/sign-in/passkey", await assertion(soft));
    expect(res.status).toBe(200);
    const members = await json(await asMember("GET", "/members", cookieOf(res) as string));
    expect(members.data.map((m: { id: string }) => m.id)).toContain(a.member.id);
    expect(members.data.map((m: { id: string }) => m.id)).not.toContain(twin.id);
    // An answer naming the other business's member as its user is refused.
    const handle = btoa(twin.id).replaceAll("=", "");
    await validationError(await officeJson("/office/sign-in/passkey", await assertion(soft, handle)), "credential");
    // A handle that is not base64url of anything is refused the same way.
    await validationError(await officeJson("/office/sign-in/passkey", await assertion(soft, "a")), "credential");
    // Disabled (by another owner): the passkey signs nobody in.
    await memberOf(a.apiKey, { role: "owner" }, true);
    expect(
      (await api("PATCH", `/members/${a.member.id}`, { key: a.apiKey, body: { status: "disabled" } })).status,
    ).toBe(200);
    const refused = await officeJson("/office/sign-in/passkey", await assertion(soft));
    await validationError(refused, "credential");
    expect(refused.headers.get("Set-Cookie")).toBeNull();
    // Removed: their passkeys go with them.
    expect((await api("DELETE", `/members/${a.member.id}`, { key: a.apiKey })).status).toBe(204);
    expect(await rowsOf(a.member.id)).toEqual([]);
  });

  it("wrong input is a clear problem and changes nothing", async () => {
    const { member, cookie } = await ownerSignedIn();
    const { body } = await registration(cookie);
    const send = (sent: unknown, headers?: Record<string, string>) =>
      officeJson("/office/passkeys", sent, { cookie, headers });
    await problem(await send(body, { "Content-Type": "text/plain" }), 415, "unsupported_media_type");
    await problem(await send("{not json"), 400, "malformed_json");
    await problem(await send({ ...body, padding: "x".repeat(20_000) }), 413, "payload_too_large");
    await validationError(await send({ name: "x".repeat(61), credential: body.credential }), "name");
    await validationError(await send({ credential: { ...body.credential, type: "password" } }), "credential.type");
    await validationError(await send({ credential: { ...body.credential, id: "not base64url!" } }), "credential.id");
    await validationError(
      await officeJson("/office/sign-in/passkey", { credential: { id: "abc" } }),
      "credential.response",
    );
    expect(await rowsOf(member.id)).toEqual([]);
    // The challenge was never spent by a body that could not be read.
    expect((await send(body)).status).toBe(201);
  });

  it("sign-in challenges are bounded per client: 30 in 15 minutes, then a 429", async () => {
    const client = { "CF-Connecting-IP": `192.0.2.${Math.floor(Math.random() * 250)}` };
    for (let i = 0; i < 30; i++) {
      expect((await officeJson("/office/sign-in/passkey/options", {}, { headers: client })).status).toBe(200);
    }
    const res = await officeJson("/office/sign-in/passkey/options", {}, { headers: client });
    await problem(res, 429, "rate_limited");
    expect(res.headers.get("Retry-After")).toBe("900");
    const elsewhere = { "CF-Connecting-IP": "198.51.100.77" };
    expect((await officeJson("/office/sign-in/passkey/options", {}, { headers: elsewhere })).status).toBe(200);
  });

  it("challenges to add a passkey are bounded per session: 30 in 15 minutes, then a 429", async () => {
    const { cookie, email } = await ownerSignedIn();
    for (let i = 0; i < 30; i++) {
      expect((await officeJson("/office/passkeys/options", {}, { cookie })).status).toBe(200);
    }
    const res = await officeJson("/office/passkeys/options", {}, { cookie });
    await problem(res, 429, "rate_limited");
    expect(res.headers.get("Retry-After")).toBe("900");
    const another = await signIn(email);
    expect((await officeJson("/office/passkeys/options", {}, { cookie: another })).status).toBe(200);
  });
});
