/**
 * `wrangler dev` itself: the arguments `npm run dev` adds to the user's, its start with this
 * terminal (its output is the user's to read), and the wait until it answers. wrangler and
 * workerd starting is the slow part of a start, so local D1 is prepared meanwhile (prepare.ts).
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { repoRoot } from "../lib/cli.ts";
import { devSecretsFile } from "../lib/dev-state.ts";
import { spawnWrangler } from "../lib/wrangler.ts";
import { fail, log, sinceStart, warn } from "./log.ts";
import type { DevOptions } from "./options.ts";
import { adoptWrangler, isStopping } from "./stop.ts";

/** How long wrangler may take to answer `/health` before the demo data is given up on. */
const HEALTH_TIMEOUT_MS = 120_000;

/** `wrangler dev` with the user's arguments, and what the local server needs that they did not say. */
export function wranglerArgs({ args, ip, portText, port, origin, state }: DevOptions): string[] {
  const devArgs = ["dev", ...args];
  if (ip === undefined) devArgs.push("--ip", "127.0.0.1");
  if (portText === undefined) devArgs.push("--port", String(port));
  // Webhook receivers on this machine (`npm run webhooks:listen`); production never sets it.
  devArgs.push("--var", "WEBHOOKS_ALLOW_LOCAL:true");
  // Customers' manage links: this server's address, and the state's own signing secret
  // (a .dev.vars of yours is read after it, so a MANAGE_LINK_SECRET there wins).
  devArgs.push("--var", `PUBLIC_URL:${origin}`, "--env-file", devSecretsFile(state));
  if (existsSync(path.join(repoRoot, ".dev.vars"))) devArgs.push("--env-file", path.join(repoRoot, ".dev.vars"));
  return devArgs;
}

/** Only wrangler's own help: no migrations, no server; exits with wrangler's status. */
export function showWranglerHelp(args: readonly string[]): void {
  spawnWrangler(["dev", ...args], { stdio: "inherit" }).once("exit", (code) => process.exit(code ?? 1));
}

/** Starts `wrangler dev` on this terminal; when it ends, this process ends with its status. */
export function startWrangler(devArgs: readonly string[]): ChildProcess {
  log(`starting wrangler ${devArgs.join(" ")}`);
  const child = spawnWrangler(devArgs, { stdio: "inherit" });
  adoptWrangler(child);
  child.once("error", (error) => {
    fail(`could not start wrangler: ${error.message}`);
    process.exit(1);
  });
  child.once("exit", (code, signal) => {
    if (!isStopping()) log(`wrangler exited (${signal ?? `code ${code}`}).`);
    process.exit(code ?? (signal === "SIGINT" ? 130 : signal === "SIGTERM" ? 143 : 1));
  });
  return child;
}

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/**
 * Whether wrangler answers `${baseUrl}/health` (which touches no storage, so it may be asked
 * while local D1 is prepared) within 120 s; false at once if wrangler ends or we are stopping.
 */
export async function waitUntilHealthy(baseUrl: string, child: ChildProcess): Promise<boolean> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (isStopping() || !running(child)) return false;
    try {
      const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2000) });
      await response.body?.cancel();
      if (response.ok) {
        log(`wrangler answered /health ${sinceStart()} after start.`);
        return true;
      }
    } catch {}
    await sleep(100);
  }
  return false;
}

/** Says why there is no demo data when wrangler did not answer in time (nothing when it ended or we stop). */
export function notSeeding(baseUrl: string, child: ChildProcess): void {
  if (!isStopping() && child.exitCode === null) {
    warn(`${baseUrl}/health did not answer within ${HEALTH_TIMEOUT_MS / 1000} s; not seeding.`);
  }
}
