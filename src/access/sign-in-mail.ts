/**
 * Sends a member's sign-in link: the webhook queue carries the link's id (never the link, which
 * is derived here from the id and the secret), so a failed send is retried by the queue. Sign-in
 * e-mails go out whether or not the business's customer e-mails are on; a link used or expired
 * by the time the queue runs is not sent.
 */
import { and, eq, gt, isNull } from "drizzle-orm";
import { businesses, members, signInLinks } from "../db/schema";
import type { Mailer } from "../messages/mailer";
import { membersDb } from "./members";
import { signInToken } from "./sign-in-token";

/** Sends the link `id`; answers whether it is worth another try (the service failed). */
export async function sendSignInMail(env: Env, mailer: Mailer, id: string, now = Date.now()): Promise<boolean> {
  const [row] = await membersDb(env)
    .select({ email: members.email, name: members.name, business: businesses.name })
    .from(signInLinks)
    .innerJoin(members, eq(members.id, signInLinks.memberId))
    .innerJoin(businesses, eq(businesses.id, members.businessId))
    .where(
      and(eq(signInLinks.id, id), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, new Date(now).toISOString())),
    )
    .limit(1);
  if (!row || !env.EMAIL_FROM || !env.PUBLIC_URL || !env.MANAGE_LINK_SECRET) return false;
  const link = `${env.PUBLIC_URL}/office/sign-in/link?token=${await signInToken(env.MANAGE_LINK_SECRET, id)}`;
  try {
    await mailer({
      from: { email: env.EMAIL_FROM, name: row.business },
      to: row.email,
      subject: `Sign in to ${row.business}`,
      text: `Hello ${row.name},\n\nOpen this link within 15 minutes to sign in to ${row.business}'s office:\n\n${link}\n\nIt works once. If you did not ask for it, ignore this e-mail.\n`,
      headers: { "Auto-Submitted": "auto-generated" },
    });
    return false;
  } catch {
    return true;
  }
}

/** The queue's sign-in messages: each sent, or retried after a minute. */
export async function sendSignInMails(
  env: Env,
  mailer: Mailer,
  messages: readonly Message<{ signInLinkId?: string }>[],
): Promise<void> {
  for (const message of messages) {
    if (await sendSignInMail(env, mailer, message.body.signInLinkId ?? "")) message.retry({ delaySeconds: 60 });
    else message.ack();
  }
}
