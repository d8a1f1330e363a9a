/**
 * The first owner of a new business (`business:create -- --owner-email …`): their member row and a
 * sign-in link, written to the directory, where members live (docs/members.md). The link is
 * signed with the deployment's `MANAGE_LINK_SECRET`: a local state folder's own (dev-secrets.env),
 * or, for `--remote`, the one in this shell's environment.
 */
import { readFileSync } from "node:fs";
import { newSignInLinkId, signInToken } from "../../src/access/sign-in-token.ts";
import { sha256Hex } from "../../src/lib/crypto.ts";
import { newId } from "../../src/lib/ids.ts";
import { devSecretsFile, stateDir } from "./dev-state.ts";
import { sql } from "./wrangler.ts";

/** A link is good this long (as the Worker's). */
const LINK_TTL_MS = 15 * 60_000;

/** The secret links are signed with, if this machine knows it. */
function secretOf(remote: boolean, persistTo: string | undefined): string | undefined {
  if (process.env.MANAGE_LINK_SECRET) return process.env.MANAGE_LINK_SECRET;
  if (remote) return undefined;
  const file = readFileSync(devSecretsFile(stateDir(persistTo)), "utf8");
  return /^MANAGE_LINK_SECRET=(.+)$/m.exec(file)?.[1]?.trim();
}

/**
 * A sign-in link for the member: its row as SQL (for the directory) and its address, or no
 * address when this machine does not know the secret or the origin. Local origins default to
 * `http://localhost:8787`, where passkeys and the `session` cookie work.
 */
export async function signInLinkSql(
  memberId: string,
  email: string,
  target: { remote: boolean; persistTo?: string | undefined },
  origin = process.env.PUBLIC_URL || (target.remote ? "" : "http://localhost:8787"),
) {
  const now = Date.now();
  const linkId = newSignInLinkId();
  const row = sql`INSERT INTO sign_in_links (id, member_id, email_hash, client_hash, created_at, expires_at, used_at) VALUES (${linkId}, ${memberId}, ${await sha256Hex(email.toLowerCase())}, ${await sha256Hex("local-cli")}, ${new Date(now).toISOString()}, ${new Date(now + LINK_TTL_MS).toISOString()}, NULL);`;
  const secret = secretOf(target.remote, target.persistTo);
  const link =
    secret && origin ? `${origin}/office/sign-in/link?token=${await signInToken(secret, linkId)}` : undefined;
  return { row, link, signInPage: `${origin || "https://<your host>"}/office/sign-in` };
}

/** The first owner's rows as SQL (an invited owner and their link), and their sign-in link. */
export async function ownerSql(
  businessId: string,
  email: string,
  target: { remote: boolean; persistTo?: string | undefined },
) {
  const at = new Date().toISOString();
  const memberId = newId("member");
  const address = email.toLowerCase();
  const member = sql`INSERT INTO members (id, business_id, email, name, role, provider_id, status, version, created_at, updated_at, last_sign_in_at) VALUES (${memberId}, ${businessId}, ${address}, ${address.split("@")[0] ?? address}, 'owner', NULL, 'invited', 1, ${at}, ${at}, NULL);`;
  const { row, link, signInPage } = await signInLinkSql(memberId, address, target);
  return { memberId, rows: `${member}\n${row}`, link, signInPage };
}
