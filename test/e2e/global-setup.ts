/**
 * Starts the API exactly as a user would (`npm run dev -- --port <free> --persist-to <fresh dir>`),
 * waits until the demo data is seeded, fetches the served OpenAPI document, generates typed
 * paths from it (test/e2e/.generated/api.d.ts) and provides the base URL, demo key and document
 * path to the tests. Teardown stops the whole process group (npm, scripts/dev.ts, wrangler,
 * workerd) and removes the temporary state.
 */
import type { ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import type { TestProject } from "vitest/node";
import { DEMO_API_KEY } from "../../scripts/lib/demo.ts";
import { freePort, signalGroup, startDevServer, stopGroup } from "../support/dev-server.ts";

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
const SEEDED_LINE = /\[dev\] (seeded .*|demo data already present\.)/;
/** How long after the "seeded" line the demo bookings may take to show up in GET /bookings. */
const SEEDED_GRACE_MS = 60_000;

async function fetchJson(url: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, body };
}

/** Resolves once the dev server printed its "seeded"/"already present" line and bookings exist. */
async function waitUntilReady(child: ChildProcess, output: { text: string }, baseUrl: string): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
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
        const r = await fetchJson(`${baseUrl}/bookings?limit=1`, {
          headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
        });
        const total = (r.body as { pagination?: { total?: number } }).pagination?.total ?? 0;
        if (r.status === 200 && total > 0) return;
        lastProblem = `GET /bookings answered ${r.status} with total ${total}`;
      } catch (error) {
        lastProblem = error instanceof Error ? error.message : String(error);
      }
    }
    await sleep(250);
  }
  throw new Error(
    `the dev server was not ready with seeded data within ${STARTUP_TIMEOUT_MS / 1000} s (${lastProblem})`,
  );
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  mkdirSync(generatedDir, { recursive: true });
  const port = await freePort();
  const persistDir = await mkdtemp(path.join(os.tmpdir(), "booking-e2e-"));
  const origin = `http://127.0.0.1:${port}`;
  const baseUrl = `${origin}/api/v1`;
  const logPath = path.join(generatedDir, "dev-server.log");
  const log = createWriteStream(logPath);

  const { child, pgid, output } = startDevServer(port, persistDir, (chunk) => log.write(chunk));
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
    await waitUntilReady(child, output, baseUrl);

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
