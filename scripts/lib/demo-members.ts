/**
 * `npm run dev`'s demo members (docs/members.md): the owner and a staff member who is the first demo
 * provider, invited through the API with the demo key when missing, and a fresh sign-in link for
 * each at every start (good once, for 15 minutes), written straight to the local directory.
 */
import { demoMembers } from "./demo.ts";
import { signInLinkSql } from "./owner.ts";
import { type D1Target, executeSql } from "./wrangler.ts";

type Api = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>;
type Listed = { data?: { id: string; email: string; name?: string }[] };

/** Each demo member's name and sign-in link, at `origin`. */
export async function demoSignInLinks(api: Api, origin: string, target: D1Target) {
  const providers = (await api("GET", "/providers?limit=100")).body as Listed;
  const staffProvider = providers.data?.find((p) => p.email === demoMembers[1].email)?.id;
  for (const member of demoMembers) {
    const body = member.role === "staff" ? { ...member, providerId: staffProvider } : member;
    await api("POST", "/members", body);
  }
  const listed = ((await api("GET", "/members?limit=100")).body as Listed).data ?? [];
  const links: { name: string; link: string }[] = [];
  const rows: string[] = [];
  for (const member of listed.filter((m) => demoMembers.some((d) => d.email === m.email))) {
    const { row, link } = await signInLinkSql(member.id, member.email, target, origin);
    rows.push(row);
    if (link) links.push({ name: member.name ?? member.email, link });
  }
  if (rows.length > 0) await executeSql(target, rows.join("\n"));
  return links;
}
