/**
 * The banner `npm run dev` prints on stdout once the demo is ready: where the API is, the demo
 * key, what to try and the links made at this start. Tools read it: the browser tests and the
 * contract tester take the demo key ("Demo key  bk_…") and the sign-in links ("    Name: http…
 * /office/sign-in/link?token=…") from it (test/support/dev-server.ts), and wait for its first
 * line; change those lines' shape together with their parsers.
 */
import { out } from "../lib/cli.ts";
import { DEMO_API_KEY, DEMO_BUSINESS_NAME, demoProviders } from "../lib/demo.ts";
import type { Demo } from "./demo.ts";
import type { DevOptions } from "./options.ts";

/** A titled group of lines, or nothing when it has no lines. */
const section = (title: string, lines: string[]) => (lines.length ? ["", title, ...lines] : []);

/** Prints the banner; `firstAnswer` and `ready` are times since the start ("4.2 s"). */
export function printBanner(
  { baseUrl, origin, persistTo }: DevOptions,
  demo: Demo,
  firstAnswer: string,
  ready: string,
) {
  const line = "─".repeat(72);
  const [stylist] = demoProviders;
  out(
    [
      "",
      line,
      "  Booking API is running locally",
      "",
      `  Base URL  ${baseUrl}`,
      `  Demo key  ${DEMO_API_KEY}`,
      `            (business "${DEMO_BUSINESS_NAME}"; a fixed, local-only test key, never valid remotely)`,
      `  OpenAPI   ${baseUrl}/openapi.json`,
      `  Reference ${baseUrl}/docs`,
      `  Data      ${persistTo ?? ".wrangler/state"} (local D1 and Durable Objects)`,
      `  Started   first request answered ${firstAnswer} after start; ready with demo data ${ready}`,
      ...(demo.pageUrl ? [`  Booking   ${demo.pageUrl}  (the demo's page for customers; open it in a browser)`] : []),
      "",
      "  Try:",
      `    curl -H "Authorization: Bearer ${DEMO_API_KEY}" ${baseUrl}/services`,
      ...section("  A visit of two services back to back, and a weekly series (GET with the key):", [
        ...(demo.visitId ? [`    ${baseUrl}/appointments/${demo.visitId}`] : []),
        ...(demo.seriesId ? [`    ${baseUrl}/series/${demo.seriesId}`] : []),
      ]),
      ...section(
        "  Sign in to the office (each link once, within 15 minutes):",
        demo.signIns.map((m) => `    ${m.name}: ${m.link}`),
      ),
      ...section(
        "  A customer's own link to their booking (no key; POST to …/cancel or …/reschedule):",
        demo.manageUrl ? [`    ${demo.manageUrl}`] : [],
      ),
      ...section(
        `  ${stylist?.name}'s calendar feed (subscribe in a calendar app; a new address every start):`,
        demo.feedUrl ? [`    ${demo.feedUrl}`] : [],
      ),
      "",
      "  E-mails to customers are captured here, never sent (the Local Explorer lists them):",
      `    ${origin}/cdn-cgi/local/explorer`,
      `    curl -s ${origin}/cdn-cgi/local/explorer/api/local/email/sending   (newest first, as JSON)`,
      "",
      "  Ctrl-C stops the server.",
      line,
      "",
    ].join("\n"),
  );
}
