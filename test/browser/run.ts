/**
 * `npm run test:browser`: the browser scripts one after the other (the API reference, the
 * booking pages, then the office), each with its own dev server and its own `N passed, N failed`
 * line; exits 1 if any failed. .ci/run adds up every such line of the output.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

const scripts = ["docs.browser.ts", "booking.browser.ts", "office.browser.ts"];
let failed = false;
for (const script of scripts) {
  const { status } = spawnSync(process.execPath, [path.join(import.meta.dirname, script)], { stdio: "inherit" });
  if (status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
