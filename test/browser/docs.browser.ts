/**
 * `npm run test:browser`: the API reference at /api/v1/docs in a real browser.
 *
 *  1. starts the API as a user does (`npm run dev -- --port <free> --persist-to <fresh dir>`),
 *     in its own process group, and waits for GET /api/v1/health;
 *  2. launches headless Chromium (/usr/bin/chromium, or $CHROMIUM_PATH) through playwright-core
 *     and opens /api/v1/docs;
 *  3. checks that Swagger UI renders every operation of the served /api/v1/openapi.json (method,
 *     path and operationId), that the page made no request to any host but 127.0.0.1, and that
 *     it logged no errors (a CSP violation is one);
 *  4. saves a full-page screenshot to .ci/artifacts/docs.png.
 *
 * Prints one line per check, then `N passed, N failed`; exits 1 if any check failed. The dev
 * server's whole process group (npm, scripts/dev.ts, wrangler, workerd) is always stopped.
 *
 * Type-checked (Node + DOM) by test/browser/tsconfig.json, part of `npm run typecheck`.
 */
import { mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type Browser, chromium, type Request as PageRequest } from "playwright-core";
import { type DevServer, freePort, signalGroup, startDevServer, stopGroup } from "../support/dev-server.ts";

const root = path.resolve(import.meta.dirname, "..", "..");
const artifactsDir = path.join(root, ".ci", "artifacts");
const screenshotPath = path.join(artifactsDir, "docs.png");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** Migrations, wrangler and workerd start in ~30 s on a loaded 2-core machine. */
const STARTUP_TIMEOUT_MS = Number(process.env.BROWSER_STARTUP_TIMEOUT_MS ?? 240_000);
const RENDER_TIMEOUT_MS = 60_000;

// --- checks ----------------------------------------------------------------------------------

let passed = 0;
let failed = 0;

function check(name: string, ok: boolean, detail?: string): boolean {
  if (ok) passed++;
  else failed++;
  console.log(
    `${ok ? "ok  " : "FAIL"} ${name}${!ok && detail ? `\n       ${detail.replaceAll("\n", "\n       ")}` : ""}`,
  );
  return ok;
}

const log = (message: string) => console.log(`[browser-test] ${message}`);

// --- the dev server ------------------------------------------------------------------------

async function waitForHealth(server: DevServer, baseUrl: string): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const { child } = server;
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`npm run dev exited early (${child.signalCode ?? `code ${child.exitCode}`})`);
    }
    try {
      const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2_000) });
      await res.body?.cancel();
      if (res.ok) return;
    } catch {}
    await sleep(300);
  }
  throw new Error(`GET ${baseUrl}/health did not answer 200 within ${STARTUP_TIMEOUT_MS / 1000} s`);
}

// --- the document -----------------------------------------------------------------------------

type Operation = { method: string; path: string; operationId: string; tags: string[] };

const httpMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** The operations of the document: its paths' and its webhooks' (listed by their event's name). */
function operationsOf(doc: {
  paths?: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
}): Operation[] {
  const operations: Operation[] = [];
  for (const [p, item] of [...Object.entries(doc.paths ?? {}), ...Object.entries(doc.webhooks ?? {})]) {
    for (const [method, value] of Object.entries(item)) {
      if (!httpMethods.includes(method)) continue;
      const op = value as { operationId?: string; tags?: string[] };
      operations.push({ method, path: p, operationId: op.operationId ?? "", tags: op.tags ?? [] });
    }
  }
  return operations;
}

// --- the page ---------------------------------------------------------------------------------

type Rendered = { method: string; path: string; id: string };

async function testDocsPage(browser: Browser, origin: string, doc: Record<string, unknown>): Promise<void> {
  const operations = operationsOf(
    doc as { paths?: Record<string, Record<string, unknown>>; webhooks?: Record<string, Record<string, unknown>> },
  );
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();

  const requests: string[] = [];
  const foreign: string[] = [];
  const failedRequests: string[] = [];
  const errors: string[] = [];
  context.on("request", (request: PageRequest) => {
    const url = request.url();
    requests.push(url);
    const { protocol, hostname } = new URL(url);
    // data:/blob: URLs never leave the browser; anything else must stay on 127.0.0.1.
    if (!["data:", "blob:", "about:"].includes(protocol) && hostname !== "127.0.0.1") foreign.push(url);
  });
  context.on("requestfailed", (request: PageRequest) => {
    failedRequests.push(`${request.url()}: ${request.failure()?.errorText ?? "failed"}`);
  });
  const httpErrors: string[] = [];
  context.on("response", (r) => {
    if (r.status() >= 400) httpErrors.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));

  const docsUrl = `${origin}/api/v1/docs`;
  const response = await page.goto(docsUrl, { waitUntil: "load", timeout: RENDER_TIMEOUT_MS });
  check("GET /api/v1/docs answers 200 text/html", response?.status() === 200, `status ${response?.status()}`);

  let rendered: Rendered[] = [];
  try {
    // Swagger UI renders one .opblock per operation (and tag) once it has loaded the document.
    // Polled from here with a locator: waitForFunction evaluates its predicate with eval, which
    // the page's CSP (rightly) forbids.
    const deadline = Date.now() + RENDER_TIMEOUT_MS;
    while ((await page.locator("#reference .opblock").count()) < operations.length) {
      if (Date.now() > deadline) throw new Error(`not rendered within ${RENDER_TIMEOUT_MS / 1000} s`);
      await sleep(200);
    }
    await page.waitForLoadState("networkidle", { timeout: RENDER_TIMEOUT_MS });
    rendered = await page.$$eval("#reference .opblock", (blocks) =>
      blocks.map((block) => ({
        method: (block.querySelector(".opblock-summary-method")?.textContent ?? "").trim().toLowerCase(),
        path: (
          block.querySelector(".opblock-summary-path")?.getAttribute("data-path") ??
          block.querySelector(".opblock-summary-path")?.textContent ??
          ""
        ).trim(),
        id: block.id,
      })),
    );
  } catch (error) {
    const count = await page.locator("#reference .opblock").count();
    check(
      "Swagger UI renders the operations",
      false,
      `${count} of ${operations.length} rendered: ${error instanceof Error ? error.message : String(error)}`,
    );
  }

  const title =
    (await page
      .locator("#reference .info .title")
      .first()
      .textContent()
      .catch(() => null)) ?? "";
  const infoTitle = String((doc.info as { title?: string } | undefined)?.title ?? "");
  check(`the page shows the document's title "${infoTitle}"`, infoTitle !== "" && title.includes(infoTitle), title);

  for (const prefix of ["/bookings", "/services", "/customers"]) {
    const ops = operations.filter((o) => o.path === prefix || o.path.startsWith(`${prefix}/`));
    check(`the document has ${prefix} operations`, ops.length >= 2, `${ops.length} found`);
  }

  const missing = operations.filter(
    (o) =>
      !rendered.some(
        (r) =>
          r.method === o.method && r.path === o.path && (o.operationId === "" || r.id.endsWith(`-${o.operationId}`)),
      ),
  );
  check(
    `all ${operations.length} operations of /api/v1/openapi.json are listed (method, path, operationId)`,
    rendered.length > 0 && missing.length === 0,
    missing.map((o) => `${o.method.toUpperCase()} ${o.path} (${o.operationId})`).join("\n") || "nothing rendered",
  );
  const extra = rendered.filter((r) => !operations.some((o) => o.method === r.method && o.path === r.path));
  check(
    "the page lists no operation the document does not have",
    extra.length === 0,
    extra.map((r) => `${r.method} ${r.path}`).join("\n"),
  );

  check(
    "the page loaded its document from this server",
    requests.some((u) => u === `${origin}/api/v1/openapi.json`),
    requests.join("\n"),
  );
  check("the page made no request to a host other than 127.0.0.1", foreign.length === 0, foreign.join("\n"));
  check("no request of the page failed", failedRequests.length === 0, failedRequests.join("\n"));
  check("every response to the page was a success", httpErrors.length === 0, httpErrors.join("\n"));
  // Chromium asks for /favicon.ico on its own when a page names no icon; that 404 is not the page's doing.
  const favicon = errors.filter((e) => e.includes(`${origin}/favicon.ico`));
  if (favicon.length > 0) log(`note: the page names no icon, so the browser's own GET /favicon.ico got a 404`);
  const pageErrors = errors.filter((e) => !favicon.includes(e));
  check("the page logged no errors (CSP violations included)", pageErrors.length === 0, pageErrors.join("\n"));

  mkdirSync(artifactsDir, { recursive: true });
  try {
    await page.screenshot({ path: screenshotPath, fullPage: true });
    check(`screenshot saved to ${path.relative(root, screenshotPath)}`, true);
  } catch (error) {
    check("screenshot saved", false, error instanceof Error ? error.message : String(error));
  }
  await context.close();
}

// --- main -------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const port = await freePort();
  const persistDir = await mkdtemp(path.join(os.tmpdir(), "booking-browser-"));
  const origin = `http://127.0.0.1:${port}`;
  const baseUrl = `${origin}/api/v1`;
  let server: DevServer | undefined;
  let browser: Browser | undefined;

  // Ctrl-C or a CI timeout: stop the dev server group before going.
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
    await waitForHealth(server, baseUrl);
    check(`the dev server answers GET /api/v1/health (${((Date.now() - started) / 1000).toFixed(1)} s)`, true);

    const res = await fetch(`${baseUrl}/openapi.json`, { signal: AbortSignal.timeout(10_000) });
    const doc = (await res.json()) as Record<string, unknown>;
    check("GET /api/v1/openapi.json answers 200", res.status === 200, `status ${res.status}`);

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
    await testDocsPage(browser, origin, doc);
  } catch (error) {
    check("the browser test ran to the end", false, error instanceof Error ? error.message : String(error));
    if (server) log(`last lines of npm run dev:\n${server.output.text.split("\n").slice(-30).join("\n")}`);
  } finally {
    await browser?.close().catch(() => {});
    if (server) {
      const gone = await stopGroup(server.pgid);
      check("the dev server's process group (npm, wrangler, workerd) is stopped", gone);
    }
    await rm(persistDir, { recursive: true, force: true });
  }
}

await main();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
