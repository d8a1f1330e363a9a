/**
 * `npm run dev` as a user types it, for the Node-side suites (e2e contract tests, browser test,
 * contract tester): a free port, a fresh state folder, its own process group, a wait until the
 * demo data is seeded, and a stop that leaves nothing behind.
 */
import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const root = path.resolve(import.meta.dirname, "..", "..");
const STOP_TIMEOUT_MS = 15_000;
const SEEDED_LINE = /\[dev\] (seeded .*|demo data already present\.)/;
/** How long after the "seeded" line the demo bookings may take to show up in GET /bookings. */
const SEEDED_GRACE_MS = 60_000;

export type DevServer = {
  child: ChildProcess;
  /** The process group: npm, scripts/dev.ts, wrangler and workerd. */
  pgid: number;
  /** The last 20,000 characters the server printed. */
  output: { text: string };
};

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no free port")),
      );
    });
  });
}

/**
 * Starts `npm run dev -- --port <port> --persist-to <dir> [extraArgs]`; `onOutput` sees everything
 * it prints.
 */
export function startDevServer(
  port: number,
  persistDir: string,
  onOutput?: (chunk: string) => void,
  extraArgs: readonly string[] = [],
): DevServer {
  // npm from the same Node when we were started by npm.
  const npmCli = process.env.npm_execpath;
  const [command, prefix] =
    npmCli && path.basename(npmCli) === "npm-cli.js" ? [process.execPath, [npmCli]] : ["npm", []];
  const child = spawn(
    command,
    [...prefix, "run", "dev", "--", "--port", String(port), "--persist-to", persistDir, ...extraArgs],
    {
      cwd: root,
      detached: true, // its own process group: one signal reaches npm, dev.ts, wrangler and workerd
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        NO_COLOR: "1",
        FORCE_COLOR: "0",
        WRANGLER_SEND_METRICS: "false",
        WRANGLER_SEND_ERROR_REPORTS: "false",
        WRANGLER_HIDE_BANNER: "true",
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
      },
    },
  );
  if (child.pid === undefined) throw new Error("could not start npm run dev");
  const output = { text: "" };
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      onOutput?.(chunk);
      output.text = (output.text + chunk).slice(-20_000);
    });
  }
  return { child, pgid: child.pid, output };
}

/** Whether any process of the group led by `pgid` is still alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Sends `signal` to every process of the group, if any is left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {}
}

/** SIGTERM to the whole group; SIGKILL to whatever is left after 15 s. Returns whether it is gone. */
export async function stopGroup(pgid: number): Promise<boolean> {
  signalGroup(pgid, "SIGTERM");
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (groupAlive(pgid) && Date.now() < deadline) await sleep(100);
  if (groupAlive(pgid)) {
    signalGroup(pgid, "SIGKILL");
    const killDeadline = Date.now() + 5_000;
    while (groupAlive(pgid) && Date.now() < killDeadline) await sleep(100);
  }
  return !groupAlive(pgid);
}

/** The demo key `npm run dev` printed in its banner ("Demo key  bk_test_…"), once it has. */
export function printedDemoKey(output: { text: string }): string | undefined {
  return /Demo key\s+(bk_\w+)/.exec(output.text)?.[1];
}

/** The demo members' sign-in links the banner printed ("    Olivia Owner: http://localhost:…/office/sign-in/link?token=…"). */
export function printedSignInLinks(output: { text: string }): Map<string, string> {
  const links = new Map<string, string>();
  for (const [, name, link] of output.text.matchAll(
    /^ +([^:\n]+): (https?:\/\/\S+\/office\/sign-in\/link\?token=\S+)$/gm,
  )) {
    if (name && link) links.set(name.trim(), link);
  }
  return links;
}

/**
 * Resolves once the dev server printed its "seeded"/"already present" line and bookings exist
 * (GET /bookings with `apiKey` counts some); throws if it exits or is not ready in `timeoutMs`.
 */
export async function waitUntilSeeded(server: DevServer, baseUrl: string, apiKey: string, timeoutMs: number) {
  const { child, output } = server;
  const deadline = Date.now() + timeoutMs;
  let lastProblem = "no answer yet";
  let seededAt: number | undefined;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`npm run dev exited early (${child.signalCode ?? `code ${child.exitCode}`})`);
    }
    if (SEEDED_LINE.test(output.text)) {
      seededAt ??= Date.now();
      // Seeding is over; bookings deferred to the outbox may still reach D1, but not forever.
      if (Date.now() - seededAt > SEEDED_GRACE_MS) {
        throw new Error(`seeding finished, but after ${SEEDED_GRACE_MS / 1000} s still ${lastProblem}`);
      }
      try {
        const response = await fetch(`${baseUrl}/bookings?limit=1`, {
          headers: { Authorization: `Bearer ${apiKey}` },
          signal: AbortSignal.timeout(10_000),
        });
        const body = (await response.json().catch(() => ({}))) as { pagination?: { total?: number } };
        const total = body.pagination?.total ?? 0;
        if (response.status === 200 && total > 0) return;
        lastProblem = `GET /bookings answered ${response.status} with total ${total}`;
      } catch (error) {
        lastProblem = error instanceof Error ? error.message : String(error);
      }
    }
    await sleep(250);
  }
  throw new Error(`the dev server was not ready with seeded data within ${timeoutMs / 1000} s (${lastProblem})`);
}
