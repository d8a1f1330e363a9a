/**
 * Runs the project's own wrangler (node_modules/.bin/wrangler) without a shell, with telemetry
 * and network look-ups switched off, for D1 migrations and SQL against local or remote D1.
 *
 * Captured runs keep wrangler's output off our stdout; it is shown on stderr only on failure.
 */
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { CommandError, info, repoRoot } from "./cli.ts";
import { stateDir, waitWhilePreparing } from "./dev-state.ts";

/** The directory's D1 binding in wrangler.toml (businesses with their shards, API keys). */
export const d1Binding = "DB";

/**
 * The tenant shards' D1 bindings in wrangler.toml, `DB_0`, `DB_1`, … in order (src/shards counts
 * them the same way: from 0 up to the first gap).
 */
export function shardBindings(): string[] {
  const toml = readFileSync(path.join(repoRoot, "wrangler.toml"), "utf8");
  const named = new Set([...toml.matchAll(/^binding\s*=\s*"(DB_\d+)"/gm)].map((match) => match[1] as string));
  const bindings: string[] = [];
  while (named.has(`DB_${bindings.length}`)) bindings.push(`DB_${bindings.length}`);
  return bindings;
}

export const wranglerBin = path.join(repoRoot, "node_modules", ".bin", "wrangler");

/**
 * wrangler's real entry point. Its bin only checks the Node version and starts this file in a
 * second Node process; starting it directly, with the Node running this script (the project's
 * pinned one under `npm run`), saves that process.
 */
const wranglerCli = path.join(repoRoot, "node_modules", "wrangler", "wrangler-dist", "cli.js");

/** V8's code cache for wrangler's large bundle: its start-up takes about half as long from the second run on. */
const compileCacheDir = path.join(repoRoot, "node_modules", ".cache", "wrangler-compile-cache");

/** Environment for every wrangler child: no metrics, no error reports, no banner, no cf fetch. */
export function wranglerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_SEND_ERROR_REPORTS: "false",
    WRANGLER_HIDE_BANNER: "true",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? compileCacheDir,
    ...extra,
  };
}

/** Which D1 to talk to: local (Miniflare state under `persistTo`, or wrangler's default) or remote. */
export type D1Target = { remote: true } | { remote: false; persistTo?: string | undefined };

/** `--remote`, or `--local [--persist-to DIR]`. */
export function targetArgs(target: D1Target): string[] {
  if (target.remote) return ["--remote"];
  return target.persistTo ? ["--local", "--persist-to", target.persistTo] : ["--local"];
}

export function describeTarget(target: D1Target): string {
  if (target.remote) return "remote D1";
  return `local D1 (${target.persistTo ?? ".wrangler/state"})`;
}

const running = new Set<ChildProcess>();

/** Stops every wrangler child still running (used by signal handlers). */
export function killRunningWranglers(signal: NodeJS.Signals = "SIGTERM"): void {
  for (const child of running) child.kill(signal);
}

function assertInstalled(): void {
  if (!existsSync(wranglerBin)) {
    throw new CommandError(`wrangler is not installed (${wranglerBin} is missing); run \`npm ci\` first.`);
  }
}

/**
 * Starts wrangler with the given arguments (no shell); the caller owns the child. It runs in the
 * repository root, as under `npm run`, so relative paths such as `--persist-to .state/x` mean the
 * same thing for every command wherever the script was started from.
 */
export function spawnWrangler(args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  assertInstalled();
  const [command, commandArgs] = existsSync(wranglerCli)
    ? [process.execPath, ["--no-warnings", wranglerCli, ...args]]
    : [wranglerBin, [...args]];
  const child = spawn(command, commandArgs, { cwd: repoRoot, env: wranglerEnv(), ...options, shell: false });
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}

export type WranglerResult = { code: number; stdout: string; stderr: string };

/** Runs wrangler to completion with its output captured (nothing reaches our stdout). */
export function runWrangler(args: readonly string[]): Promise<WranglerResult> {
  return new Promise((resolve, reject) => {
    const child = spawnWrangler(args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: wranglerEnv({ NO_COLOR: "1", FORCE_COLOR: "0", CI: process.env.CI ?? "true" }),
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.once("error", reject);
    child.once("close", (code, signal) =>
      resolve({
        code: code ?? (signal ? 128 : 1),
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
      }),
    );
  });
}

/** The message of a failed wrangler run: its JSON error if it printed one, else its output. */
function failureText(result: WranglerResult): string {
  const parsed = tryParseJson(result.stdout) as { error?: { text?: string } } | undefined;
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed) && parsed.error?.text) return parsed.error.text;
  const text = `${result.stdout}\n${result.stderr}`.trim();
  return text.length > 4000 ? `…${text.slice(-4000)}` : text;
}

/** SQLite's "another connection is writing" error, as wrangler prints it for local D1. */
const busyPattern = /SQLITE_BUSY|database is locked/;

/**
 * Pauses before each retry of a local D1 command that found the database locked: about 20 s
 * in all, longer than `npm run dev` takes to write a fresh state or one seeding request holds
 * a write.
 */
export const busyRetryDelaysMs = [250, 500, 1000, 2000, 4000, 4000, 4000, 4000];

/**
 * Runs a wrangler D1 command; on local D1, a run that failed only because another process
 * (`npm run dev`'s workerd, or its preparation of the state) held the write lock is run again
 * after each of `delays`. Every D1 command here is one transaction (a batch, or one migration
 * file with its bookkeeping row), so a locked run changed nothing and running it again is safe.
 */
export async function runD1(
  args: readonly string[],
  target: D1Target,
  delays: readonly number[] = busyRetryDelaysMs,
): Promise<WranglerResult> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const result = await runWrangler(args);
    if (result.code === 0 || target.remote || !busyPattern.test(failureText(result))) return result;
    const delay = delays[attempt];
    if (delay === undefined) {
      const seconds = Math.round((Date.now() - started) / 1000);
      throw new CommandError(
        `${describeTarget(target)} stayed locked (SQLITE_BUSY) through ${attempt + 1} tries over ${seconds} s: ` +
          "another process keeps writing to it (`npm run dev` preparing or seeding this state?). " +
          "Try again once it is ready.",
      );
    }
    info(`${describeTarget(target)} is locked by another process (SQLITE_BUSY); trying again in ${delay / 1000} s…`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * Applies migrations/ to the target's directory and every shard (the same migrations make each),
 * or to one binding; wrangler auto-confirms in a non-interactive run.
 */
export async function applyMigrations(target: D1Target, binding?: string): Promise<void> {
  if (binding === undefined) {
    if (!target.remote) await waitForDevPreparation(target);
    for (const each of [d1Binding, ...shardBindings()]) await applyMigrations(target, each);
    return;
  }
  const result = await runD1(["d1", "migrations", "apply", binding, ...targetArgs(target)], target);
  if (result.code !== 0) {
    throw new CommandError(`applying D1 migrations to ${describeTarget(target)} failed:\n${failureText(result)}`);
  }
}

/**
 * A starting `npm run dev` makes a fresh state's tables in one transaction per database; migrating
 * at the same time would race it (both create the same tables). Waits for it, at most 120 s.
 */
async function waitForDevPreparation(target: D1Target & { remote: false }): Promise<void> {
  const waited = await waitWhilePreparing(stateDir(target.persistTo), 120_000, () =>
    info(`Waiting for \`npm run dev\` to prepare ${describeTarget(target)}…`),
  );
  if (!waited) throw new CommandError(`\`npm run dev\` was still preparing ${describeTarget(target)} after 120 s.`);
}

export type Row = Record<string, unknown>;
export type StatementResult = { results: Row[]; success: boolean; meta?: Record<string, unknown> };

/**
 * Executes one or more `;`-separated SQL statements on `binding` (the directory unless told) and
 * returns one result per statement.
 * Build literals with `sql`/`sqlString` below: values are never passed unquoted.
 */
export async function executeSql(target: D1Target, sqlText: string, binding = d1Binding): Promise<StatementResult[]> {
  const args = ["d1", "execute", binding, ...targetArgs(target), "--command", sqlText, "--json"];
  const result = await runD1(args, target);
  if (result.code !== 0) {
    throw new CommandError(`SQL on ${describeTarget(target)} failed: ${failureText(result)}`);
  }
  const parsed = tryParseJson(result.stdout);
  if (!Array.isArray(parsed)) {
    throw new CommandError(`unexpected output from wrangler d1 execute:\n${result.stdout.slice(0, 2000)}`);
  }
  return parsed as StatementResult[];
}

/** Parses the JSON document in wrangler's stdout (it may be preceded by blank or log lines). */
export function tryParseJson(text: string): unknown {
  const start = text.search(/^[[{]/m);
  if (start < 0) return undefined;
  try {
    return JSON.parse(text.slice(start));
  } catch {
    return undefined;
  }
}

/** A SQL string literal: single quotes doubled. NUL characters are refused. */
export function sqlString(value: string): string {
  if (value.includes("\0")) throw new CommandError("SQL text values cannot contain NUL characters.");
  return `'${value.replaceAll("'", "''")}'`;
}

/** A SQL literal for a string, finite number, boolean or null. */
export function sqlLiteral(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new CommandError(`not a finite number: ${value}`);
    return String(value);
  }
  return sqlString(value);
}

/** Tagged template that turns every interpolated value into a SQL literal: sql`... WHERE id = ${id}`. */
export function sql(
  strings: TemplateStringsArray,
  ...values: ReadonlyArray<string | number | boolean | null | undefined>
): string {
  return strings.reduce((text, part, i) => text + part + (i < values.length ? sqlLiteral(values[i]) : ""), "");
}
