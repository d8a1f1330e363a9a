/**
 * Starts the API exactly as a user would (`npm run dev -- --port <free> --persist-to <fresh dir>`),
 * waits until the demo data is seeded, fetches the served OpenAPI document, generates typed
 * paths from it (test/e2e/.generated/api.d.ts) and provides the base URL, demo key and document
 * path to the tests. It also issues a second key of the demo business with the project's own tool
 * (`npm run business:key -- issue`, into the running server's local D1) for the visits and series
 * files: every key has its own write budget (src/middleware/rate-limit.ts), and the whole suite
 * writes more than one key's budget per minute. Teardown stops the whole process group (npm,
 * scripts/dev.ts, wrangler, workerd) and removes the temporary state.
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import type { TestProject } from "vitest/node";
import { DEMO_API_KEY, DEMO_BUSINESS_ID } from "../../scripts/lib/demo.ts";
import { freePort, signalGroup, startDevServer, stopGroup, waitUntilSeeded } from "../support/dev-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** e.g. http://127.0.0.1:41234/api/v1 (the document's server URL). */
    baseUrl: string;
    /** e.g. http://127.0.0.1:41234 */
    origin: string;
    /** The demo business's fixed key (scripts/lib/demo.ts). */
    apiKey: string;
    /**
     * Another key of the demo business, issued by this setup, for the visits and series files:
     * a budget of writes of their own (test/e2e/support.ts `secondApi`).
     */
    secondApiKey: string;
    /** Absolute path of the served OpenAPI document, saved as JSON. */
    documentPath: string;
  }
}

const generatedDir = path.join(import.meta.dirname, ".generated");
/** Startup (migrations, wrangler, workerd, seeding) takes ~30 s on a loaded 2-core machine. */
const STARTUP_TIMEOUT_MS = Number(process.env.E2E_STARTUP_TIMEOUT_MS ?? 240_000);
/** `business:key issue` applies migrations to the directory and each shard (none left), reads the shard, inserts on it and in the directory: six wrangler runs. */
const ISSUE_TIMEOUT_MS = 120_000;
const root = path.resolve(import.meta.dirname, "..", "..");

async function fetchJson(url: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, body };
}

/**
 * `npm run --silent business:key -- issue --business <demo> --mode test --json --persist-to <dir>`
 * against the dev server's local D1 (the server keeps running; wrangler's D1 is SQLite files in
 * that folder). Returns the new key. Its stdout (the key) is never logged: a failure reports the
 * exit status and stderr only.
 */
function issueDemoKey(persistDir: string): Promise<string> {
  // npm from the same Node when we were started by npm (as test/support/dev-server.ts does).
  const npmCli = process.env.npm_execpath;
  const [command, prefix] =
    npmCli && path.basename(npmCli) === "npm-cli.js" ? [process.execPath, [npmCli]] : ["npm", []];
  const args = [
    ...prefix,
    ...["run", "--silent", "business:key", "--", "issue", "--business", DEMO_BUSINESS_ID, "--mode", "test"],
    ...["--json", "--persist-to", persistDir],
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      detached: true, // its own process group: a timeout stops npm, the script and wrangler
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    const pgid = child.pid;
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-4_000);
    });
    const timer = setTimeout(() => {
      if (pgid !== undefined) signalGroup(pgid, "SIGKILL");
      reject(new Error(`business:key issue did not finish within ${ISSUE_TIMEOUT_MS / 1000} s`));
    }, ISSUE_TIMEOUT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      const failed = `business:key issue for ${DEMO_BUSINESS_ID} failed (${signal ?? `exit code ${code}`})`;
      if (code !== 0) return reject(new Error(`${failed}:\n${stderr.trim()}`));
      let key: unknown;
      try {
        key = (JSON.parse(stdout.trim()) as { apiKey?: unknown }).apiKey;
      } catch {}
      if (typeof key !== "string" || !/^bk_test_\w+$/.test(key)) {
        return reject(new Error(`${failed}: its stdout was not one JSON line with a test apiKey`));
      }
      resolve(key);
    });
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  mkdirSync(generatedDir, { recursive: true });
  const port = await freePort();
  const persistDir = await mkdtemp(path.join(os.tmpdir(), "booking-e2e-"));
  const origin = `http://127.0.0.1:${port}`;
  const baseUrl = `${origin}/api/v1`;
  const logPath = path.join(generatedDir, "dev-server.log");
  const log = createWriteStream(logPath);

  const server = startDevServer(port, persistDir, (chunk) => log.write(chunk));
  const { pgid, output } = server;
  // If Vitest exits without running teardown (Ctrl-C), leave no wrangler/workerd and no state behind.
  const onExit = () => {
    signalGroup(pgid, "SIGKILL");
    rmSync(persistDir, { recursive: true, force: true, maxRetries: 3 });
  };
  process.once("exit", onExit);

  let stopped = false;
  const teardown = async () => {
    if (stopped) return;
    stopped = true;
    await stopGroup(pgid);
    process.removeListener("exit", onExit);
    log.end();
    await rm(persistDir, { recursive: true, force: true });
  };

  try {
    await waitUntilSeeded(server, baseUrl, DEMO_API_KEY, STARTUP_TIMEOUT_MS);
    // After the seed: the demo business and the schema are there, and the tool's own migration
    // step finds nothing left to apply while the server holds the same database.
    const secondApiKey = await issueDemoKey(persistDir);
    const visits = await fetchJson(`${baseUrl}/services?limit=1`, {
      headers: { Authorization: `Bearer ${secondApiKey}` },
    });
    if (visits.status !== 200) throw new Error(`GET /services with the issued key answered ${visits.status}`);

    const doc = await fetchJson(`${baseUrl}/openapi.json`);
    if (doc.status !== 200 || typeof doc.body !== "object") {
      throw new Error(`GET /api/v1/openapi.json answered ${doc.status}`);
    }
    const documentPath = path.join(generatedDir, "openapi.json");
    writeFileSync(documentPath, `${JSON.stringify(doc.body, null, 2)}\n`);
    const ast = await openapiTS(pathToFileURL(documentPath), {
      silent: true,
      // Request bodies: a property with a default is still optional to send.
      defaultNonNullable: false,
    });
    writeFileSync(path.join(generatedDir, "api.d.ts"), astToString(ast));

    project.provide("baseUrl", baseUrl);
    project.provide("origin", origin);
    project.provide("apiKey", DEMO_API_KEY);
    project.provide("secondApiKey", secondApiKey);
    project.provide("documentPath", documentPath);
  } catch (error) {
    await teardown();
    const tail = output.text.split("\n").slice(-40).join("\n");
    throw new Error(
      `e2e setup failed: ${error instanceof Error ? error.message : String(error)}\n--- last lines of ${logPath} ---\n${tail}`,
    );
  }
  return teardown;
}
