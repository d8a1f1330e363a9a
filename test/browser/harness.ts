/**
 * What the browser scripts share: numbered checks that end in `N passed, N failed`, the dev
 * server started as a user starts it (a free port, fresh state, its own process group) and
 * always stopped, and headless Chromium launched as CI has it (/usr/bin/chromium or
 * $CHROMIUM_PATH, the flags test/browser/docs.browser.ts uses).
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type Browser, chromium } from "playwright-core";
import { type DevServer, freePort, signalGroup, startDevServer, stopGroup } from "../support/dev-server.ts";

export const root = path.resolve(import.meta.dirname, "..", "..");
export const artifactsDir = path.join(root, ".ci", "artifacts");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** Migrations, wrangler and workerd start in ~30 s on a loaded 2-core machine. */
const STARTUP_TIMEOUT_MS = Number(process.env.BROWSER_STARTUP_TIMEOUT_MS ?? 240_000);
/** The longest one part of a test may take on a loaded machine. */
const PART_TIMEOUT_MS = 240_000;

const tally = { passed: 0, failed: 0 };

/** Records one check and prints it (with its detail when it failed); answers whether it passed. */
export function check(name: string, ok: boolean, detail?: string): boolean {
  if (ok) tally.passed++;
  else tally.failed++;
  console.log(
    `${ok ? "ok  " : "FAIL"} ${name}${!ok && detail ? `\n       ${detail.replaceAll("\n", "\n       ")}` : ""}`,
  );
  return ok;
}

export const log = (message: string) => console.log(`[browser-test] ${message}`);

/** Runs a part of the test: an exception in it is one failed check, and the rest goes on. */
export async function part(name: string, run: () => Promise<void>): Promise<void> {
  // BROWSER_ONLY=<words> runs only the parts whose name has them (while working on one).
  if (process.env.BROWSER_ONLY && !name.includes(process.env.BROWSER_ONLY)) return;
  log(`— ${name}`);
  try {
    // A part that hangs fails, and the rest still runs.
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`did not finish within ${PART_TIMEOUT_MS / 1000} s`)), PART_TIMEOUT_MS);
    });
    await Promise.race([run(), limit]).finally(() => clearTimeout(timer));
  } catch (error) {
    check(`${name}: ran to the end`, false, error instanceof Error ? (error.stack ?? error.message) : String(error));
  }
}

async function waitForSeeded(server: DevServer, baseUrl: string): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const { child } = server;
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`npm run dev exited early (${child.signalCode ?? `code ${child.exitCode}`})`);
    }
    // The banner comes after the demo data (and the booking page) are in place.
    if (server.output.text.includes("Booking API is running locally")) {
      const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined);
      await res?.body?.cancel();
      if (res?.ok) return;
    }
    await sleep(300);
  }
  throw new Error(`npm run dev did not print its banner within ${STARTUP_TIMEOUT_MS / 1000} s`);
}

/**
 * Starts `npm run dev` and Chromium, runs `body` with them (and what the server printed: its
 * banner), and stops both whatever happens; prints the summary line and sets the exit status.
 */
export async function withDevServerAndBrowser(
  body: (origin: string, browser: Browser, printed: { text: string }, persistDir: string) => Promise<void>,
) {
  const port = await freePort();
  const persistDir = await mkdtemp(path.join(os.tmpdir(), "booking-browser-"));
  const origin = `http://127.0.0.1:${port}`;
  let server: DevServer | undefined;
  let browser: Browser | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (server) signalGroup(server.pgid, "SIGKILL");
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  process.once("exit", () => {
    if (server) signalGroup(server.pgid, "SIGKILL");
  });
  try {
    log(`starting npm run dev -- --port ${port} --persist-to ${persistDir}`);
    server = startDevServer(port, persistDir);
    const started = Date.now();
    await waitForSeeded(server, `${origin}/api/v1`);
    check(`the dev server is up with its demo data (${((Date.now() - started) / 1000).toFixed(1)} s)`, true);
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    await body(origin, browser, server.output, persistDir);
  } catch (error) {
    check(
      "the browser test ran to the end",
      false,
      error instanceof Error ? (error.stack ?? error.message) : String(error),
    );
    if (server) log(`last lines of npm run dev:\n${server.output.text.split("\n").slice(-30).join("\n")}`);
  } finally {
    await browser?.close().catch(() => {});
    if (server)
      check("the dev server's process group (npm, wrangler, workerd) is stopped", await stopGroup(server.pgid));
    await rm(persistDir, { recursive: true, force: true });
  }
  console.log(`${tally.passed} passed, ${tally.failed} failed`);
  process.exit(tally.failed > 0 ? 1 : 0);
}
