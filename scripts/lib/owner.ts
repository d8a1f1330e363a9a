/**
 * The first owner of a new business (`account:create -- --owner-email …`): their member row and a
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

/** The owner's rows as SQL, and their sign-in link (or why there is none). */
export async function ownerSql(
  businessId: string,
  email: string,
  target: { remote: boolean; persistTo?: string | undefined },
) {
  const now = Date.now();
  const at = new Date(now).toISOString();
  const memberId = newId("member", now);
  const linkId = newSignInLinkId();
  const address = email.toLowerCase();
  const rows = [
    sql`INSERT INTO members (id, business_id, email, name, role, provider_id, status, version, created_at, updated_at, last_sign_in_at) VALUES (${memberId}, ${businessId}, ${address}, ${address.split("@")[0] ?? address}, 'owner', NULL, 'invited', 1, ${at}, ${at}, NULL);`,
    sql`INSERT INTO sign_in_links (id, member_id, email_hash, client_hash, created_at, expires_at, used_at) VALUES (${linkId}, ${memberId}, ${await sha256Hex(address)}, ${await sha256Hex("account:create")}, ${at}, ${new Date(now + LINK_TTL_MS).toISOString()}, NULL);`,
  ].join("\n");
  const secret = secretOf(target.remote, target.persistTo);
  const origin = process.env.PUBLIC_URL || (target.remote ? "" : "http://localhost:8787");
  const link =
    secret && origin ? `${origin}/office/sign-in/link?token=${await signInToken(secret, linkId)}` : undefined;
  return { memberId, rows, link, signInPage: `${origin || "https://<your host>"}/office/sign-in` };
}
