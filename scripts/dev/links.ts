/**
 * The demo's links that are made anew at every start, for the banner: the first stylist's
 * calendar feed (issuing one ends the previous start's), a customer's manage link, and a
 * sign-in link for each demo member (scripts/lib/demo-members.ts).
 */

import { demoProviders } from "../lib/demo.ts";
import { demoSignInLinks } from "../lib/demo-members.ts";
import { type DemoApi, type ListBody, problemText } from "./api.ts";
import type { Demo } from "./demo.ts";
import { warn } from "./log.ts";
import type { DevOptions } from "./options.ts";

/** A new calendar feed address of the first demo stylist (the previous start's stops working). */
async function issueDemoFeed(api: DemoApi): Promise<string> {
  const providers = await api("GET", "/providers?limit=100");
  const stylist = (providers.body as ListBody<{ id: string; name: string }> | undefined)?.data?.find(
    (p) => p.name === demoProviders[0]?.name,
  );
  if (!stylist) return "";
  const feed = await api("POST", `/providers/${stylist.id}/feed`);
  if (feed.status === 201) return (feed.body as { url: string }).url;
  warn(`could not issue ${stylist.name}'s calendar feed: ${problemText(feed)}`);
  return "";
}

/** The manage link of the demo's latest appointment (what its customer would get by e-mail). */
async function demoManageLink(api: DemoApi): Promise<string> {
  const latest = await api("GET", "/bookings?limit=1&status=CONFIRMED");
  return (latest.body as ListBody<{ manageUrl: string | null }> | undefined)?.data?.[0]?.manageUrl ?? "";
}

/** Puts the feed, the manage link and the members' sign-in links into `demo`, in that order. */
export async function makeDemoLinks(api: DemoApi, { origin, target }: DevOptions, demo: Demo): Promise<void> {
  demo.feedUrl = await issueDemoFeed(api);
  demo.manageUrl = await demoManageLink(api);
  // Browsers allow passkeys on `localhost`, not on an IP address: the links use that name.
  demo.signIns = await demoSignInLinks(api, origin.replace("127.0.0.1", "localhost"), target);
}
