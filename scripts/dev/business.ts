/**
 * The demo business's own settings (PATCH /business): its e-mails to customers, and its booking
 * page for customers at `/book/demo-salon` with every demo service offered online.
 */
import { demoBusinessSettings } from "../lib/demo.ts";
import { type DemoApi, problemText } from "./api.ts";
import type { Demo } from "./demo.ts";
import { warn } from "./log.ts";

/**
 * Turns the demo business's e-mails to customers on (before any demo booking, so their
 * confirmations are captured too): `wrangler dev` keeps every message locally, sending none.
 */
export async function enableDemoEmails(api: DemoApi): Promise<void> {
  const business = await api("GET", "/business");
  if (business.status !== 200) {
    warn(`cannot read the demo business (${problemText(business)}); its e-mails stay as they are.`);
    return;
  }
  if ((business.body as { emails?: { enabled?: boolean } }).emails?.enabled) return;
  const patched = await api("PATCH", "/business", { emails: { enabled: true } });
  if (patched.status !== 200) warn(`could not turn the demo's e-mails on: ${problemText(patched)}`);
}

/**
 * The booking page: the business's slug, zone, contact and page settings, and every demo service
 * offered online — set once (a state whose business has a slug is left as it is). The page's
 * address goes into `demo` when the page is on; answers what was made, for the log line.
 */
export async function seedBookingPage(
  api: DemoApi,
  services: { id: string }[],
  origin: string,
  demo: Demo,
): Promise<string[]> {
  const business = await api("GET", "/business");
  const current = business.body as { slug?: string | null; bookingPage?: { enabled: boolean } } | undefined;
  if (business.status !== 200) {
    warn(`cannot read the business (${problemText(business)}); no booking page.`);
    return [];
  }
  const seeded: string[] = [];
  if (!current?.slug) {
    const r = await api("PATCH", "/business", demoBusinessSettings);
    if (r.status !== 200) {
      warn(`could not set up the booking page: ${problemText(r)}`);
      return [];
    }
    for (const service of services) {
      const p = await api("PATCH", `/services/${service.id}`, { bookableOnline: true });
      if (p.status !== 200) warn(`could not offer service ${service.id} online: ${problemText(p)}`);
    }
    seeded.push("the booking page");
  }
  const settings = current?.slug ? current : demoBusinessSettings;
  if (settings.bookingPage?.enabled) demo.pageUrl = `${origin}/book/${settings.slug}`;
  return seeded;
}
