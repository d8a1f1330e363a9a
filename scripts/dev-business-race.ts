/**
 * `npx node scripts/dev-business-race.ts [--runs N]` (the project's Node): `npm run business:create` next to a starting
 * `npm run dev`, as issue #47 reported it (SQLITE_BUSY on local D1). Each run starts the dev
 * server on a free port with a fresh state folder, creates one account as soon as /health
 * answers (while the server still prepares its state) and a second one right after (while it
 * seeds), then stops the server's process group and deletes the folder.
 *
 * Prints one line per run and ends with "N passed, N failed" (a run fails if either create
 * does); exit status 1 if any failed.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { freePort, startDevServer, stopGroup } from "../test/support/dev-server.ts";
import { repoRoot } from "./lib/cli.ts";

type Create = { code: number; seconds: number; stderr: string };

const { values } = parseArgs({ options: { runs: { type: "string", default: "20" } } });
const runs = Number(values.runs);
/** The dev server of the run under way, stopped on Ctrl-C too. */
let current: number | undefined;
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, async () => {
    if (current !== undefined) await stopGroup(current);
    process.exit(130);
  });

/** `npm run business:create` with `--json` against the dev server's state folder. */
function createAccount(name: string, persistTo: string): Promise<Create> {
  const started = performance.now();
  const script = path.join(repoRoot, "scripts", "business.ts");
  const child = spawn(process.execPath, [script, "create", "--name", name, "--json", "--persist-to", persistTo], {
    cwd: repoRoot,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve) =>
    child.once("close", (code) => resolve({ code: code ?? 1, seconds: (performance.now() - started) / 1000, stderr })),
  );
}

async function waitForHealth(origin: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${origin}/api/v1/health`, { signal: AbortSignal.timeout(2000) });
      await response.body?.cancel();
      if (response.ok) return true;
    } catch {}
    await sleep(100);
  }
  return false;
}

/** The line a failed create printed that says why (the SQLite error, or its last line). */
function why(create: Create): string {
  const lines = create.stderr.trim().split("\n");
  return (lines.find((line) => /SQLITE_BUSY|locked/i.test(line)) ?? lines.at(-1) ?? "").slice(0, 300);
}

async function run(index: number): Promise<boolean> {
  const state = mkdtempSync(path.join(os.tmpdir(), "dev-account-race-"));
  const port = await freePort();
  const server = startDevServer(port, state);
  current = server.pgid;
  try {
    if (!(await waitForHealth(`http://127.0.0.1:${port}`, 120_000))) {
      console.log(`run ${index}: /health did not answer in 120 s`);
      return false;
    }
    const first = await createAccount(`Race ${index}a`, state);
    const second = await createAccount(`Race ${index}b`, state);
    const ok = first.code === 0 && second.code === 0;
    const detail = [first, second]
      .map((c, i) => `create ${i + 1}: exit ${c.code} in ${c.seconds.toFixed(1)} s${c.code ? ` (${why(c)})` : ""}`)
      .join("; ");
    console.log(`run ${index}: ${ok ? "ok" : "FAILED"}; ${detail}`);
    return ok;
  } finally {
    await stopGroup(server.pgid);
    current = undefined;
    rmSync(state, { recursive: true, force: true });
  }
}

let passed = 0;
let failed = 0;
for (let i = 1; i <= runs; i++) {
  if (await run(i)) passed++;
  else failed++;
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
