/**
 * Starts the API exactly as a user would (`npm run dev -- --port <free> --persist-to <fresh dir>`),
 * waits until the demo data is seeded, fetches the served OpenAPI document, generates typed
 * paths from it (test/e2e/.generated/api.d.ts) and provides the base URL, demo key and document
 * path to the tests. Teardown stops the whole process group (npm, scripts/dev.ts, wrangler,
 * workerd) and removes the temporary state.
 */
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import type { TestProject } from "vitest/node";
import { DEMO_API_KEY } from "../../scripts/lib/demo.ts";
import { freePort, signalGroup, startDevServer, stopGroup, waitUntilSeeded } from "../support/dev-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** e.g. http://127.0.0.1:41234/api/v1 (the document's server URL). */
    baseUrl: string;
    /** e.g. http://127.0.0.1:41234 */
    origin: string;
    apiKey: string;
    /** Absolute path of the served OpenAPI document, saved as JSON. */
    documentPath: string;
  }
}

const generatedDir = path.join(import.meta.dirname, ".generated");
/** Startup (migrations, wrangler, workerd, seeding) takes ~30 s on a loaded 2-core machine. */
const STARTUP_TIMEOUT_MS = Number(process.env.E2E_STARTUP_TIMEOUT_MS ?? 240_000);

async function fetchJson(url: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, body };
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
