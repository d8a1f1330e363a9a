/**
 * Stopping `npm run dev`: wrangler (and so workerd) stops before this process exits, whether it
 * is Ctrl-C, a SIGTERM, the process that started us going away, or an error in a step, so no
 * server is left holding the port or the state folder.
 */
import type { ChildProcess } from "node:child_process";
import { killRunningWranglers } from "../lib/wrangler.ts";
import { fail, log } from "./log.ts";

/** The `wrangler dev` this process started, once it has. */
let wrangler: ChildProcess | undefined;
let stopping = false;

/** Whether this process is stopping (then it starts no more work and prints no banner). */
export const isStopping = () => stopping;

/** Makes `child` the wrangler that a stop ends. */
export function adoptWrangler(child: ChildProcess): void {
  wrangler = child;
}

function stop(signal: NodeJS.Signals): void {
  if (stopping) {
    // A second Ctrl-C: do not wait any longer.
    wrangler?.kill("SIGKILL");
    killRunningWranglers("SIGKILL");
    process.exit(130);
  }
  stopping = true;
  if (!wrangler) {
    killRunningWranglers("SIGTERM");
    process.exit(signal === "SIGINT" ? 130 : 143);
  }
  log("stopping wrangler…");
  const child = wrangler;
  // Ctrl-C in a terminal reaches wrangler too (same process group); give it a moment before a SIGTERM.
  const term = setTimeout(() => child.kill("SIGTERM"), signal === "SIGINT" ? 2000 : 0);
  const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
  term.unref();
  kill.unref();
}

/** Stops wrangler on Ctrl-C, SIGTERM, SIGHUP, when our parent goes away, and when this process exits. */
export function stopWranglerWithThisProcess(): void {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => stop(signal));
  // `npm run dev` runs us under `sh -c`; a SIGTERM sent to npm ends that shell without passing it on.
  // Being re-parented means whoever started us is gone: stop as if we had been sent SIGTERM.
  const parentPid = process.ppid;
  setInterval(() => {
    if (process.ppid !== parentPid && !stopping) {
      log("parent process exited.");
      stop("SIGTERM");
    }
  }, 500).unref();
  process.on("exit", () => {
    if (wrangler && wrangler.exitCode === null && wrangler.signalCode === null) wrangler.kill("SIGTERM");
  });
}

/** A step failed: says why, stops wrangler and exits 1 (not wrangler's signal status) once it has stopped. */
export function failed(error: unknown): void {
  fail(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
  if (wrangler) {
    wrangler.removeAllListeners("exit").once("exit", () => process.exit(1));
    wrangler.kill("SIGTERM");
  }
}
