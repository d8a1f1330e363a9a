import { readdirSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * `npm test` runs two projects of Workers tests in workerd, each with its own Miniflare:
 *
 * - "workers": every test under test/ with the bindings of wrangler.toml (production budgets);
 * - "edges": the files that need other bindings than production: rate-limit tests with small
 *   per-key budgets (so a burst over the budget takes a handful of requests, not hundreds) and
 *   the CORS test with `CORS_ORIGINS` set.
 *
 * test/e2e (Node against `npm run dev`, vitest.e2e.config.ts) and test/browser (a plain Node
 * script, `npm run test:browser`) are not Vitest-in-workerd tests.
 */

/** Test files run by the "edges" project only. */
const edgesFiles = ["test/edges/**/*.test.ts"];

/** Small budgets for the "edges" project (tests read them back from READ_BUDGET/WRITE_BUDGET). */
const edgesBudgets = {
  reads: { limit: 10, period: 60 },
  writes: { limit: 5, period: 60 },
  // The booking pages' budgets: per client address, and per business.
  page: { limit: 6, period: 60 },
  pageBusiness: { limit: 10, period: 60 },
} as const;
/** The browser origins the "edges" project allows through CORS (tests read CORS_ORIGINS). */
const edgesCorsOrigins = ["https://app.example", "https://admin.example"];

/**
 * Every test file under test/routes (its path relative to that folder, with `/`) and the names of
 * the describe blocks its source declares. Tests in workerd cannot read the file system, so
 * test/routes/operations.test.ts gets this map as the `ROUTE_TEST_FILES` binding, read here.
 */
function routeTestFiles(): Record<string, string[]> {
  const root = path.join(import.meta.dirname, "test", "routes");
  const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".test.ts"));
  return Object.fromEntries(
    files.sort().map((file) => {
      const source = readFileSync(path.join(root, file), "utf8");
      const names = [...source.matchAll(/\bdescribe\(\s*(["'`])(.*?)\1/g)].map((match) => match[2] ?? "");
      return [file.split(path.sep).join("/"), names];
    }),
  );
}

/**
 * The files the `send_email` binding wrote for a message it took (`id`: its Message-ID without
 * `<>`), by kind and suffix: "email-text/.txt", "email-html/.html", "email-attachment/-1.ics".
 * Miniflare writes them under the system's temp folder for the length of the run; workerd cannot
 * read files, so the tests ask this Node function (the `EMAIL_FILES` service binding).
 */
async function capturedFiles(id: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const dir of await readdir(os.tmpdir())) {
    if (!dir.startsWith("miniflare-")) continue;
    const root = path.join(os.tmpdir(), dir, "email");
    const kinds = await readdir(root).catch(() => [] as string[]);
    for (const kind of kinds)
      for (const file of await readdir(path.join(root, kind)).catch(() => [] as string[]))
        if (file.startsWith(id))
          found[`${kind}/${file.slice(id.length)}`] = await readFile(path.join(root, kind, file), "utf8");
  }
  return found;
}

export default defineConfig(async () => {
  // Read once here (Node), applied inside the Workers runtime by test/setup/apply-migrations.ts.
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  // The model-based test (test/model) runs MODEL_RUNS sequences; `npm run test:model -- --runs N` sets it.
  const model = {
    MODEL_RUNS: process.env.MODEL_RUNS ?? "200",
    MODEL_SEED: process.env.MODEL_SEED ?? "",
    MODEL_TRACE: process.env.MODEL_TRACE ?? "",
  };
  // Test values only: a deployment sets MANAGE_LINK_SECRET as a secret and PUBLIC_URL to its origin.
  const links = { MANAGE_LINK_SECRET: "test-manage-link-secret-0123456789abcdef", PUBLIC_URL: "http://api.test" };
  // Test value only: a deployment sets CALENDAR_SECRET as a secret (it seals calendar passwords).
  const calendars = { CALENDAR_SECRET: "test-calendar-secret-0123456789abcdef" };
  const bindings = { TEST_MIGRATIONS: migrations, ADMIN_TOKEN: "test-admin-token", ...links, ...calendars, ...model };
  const wrangler = { configPath: "./wrangler.toml" };
  // The production Worker with fault switches on the calendar's D1 writer and queue publisher.
  const main = "./test/support/worker.ts";
  const shared = {
    setupFiles: ["./test/setup/apply-migrations.ts"],
    // Every test and hook is bounded (Vitest's default hook timeout, written down). A run that
    // stalls between files, workerd idle, is bounded by .ci/run's watchdog instead: nothing here
    // or in @cloudflare/vitest-plugin bounds a whole file.
    testTimeout: 30_000,
    hookTimeout: 10_000,
  };
  const { reads, writes, page, pageBusiness } = edgesBudgets;
  return {
    // The pages are hono/jsx (tsconfig.json's jsxImportSource, which Vite's transform does not read).
    oxc: { jsx: { runtime: "automatic" as const, importSource: "hono/jsx" } },
    test: {
      // A root-level option (Vitest ignores it in a project): applies to both projects.
      // The one-line-per-request access log is for production; keep test output readable.
      onConsoleLog: (log: string) => !log.includes('"msg":"request"'),
      // Root-level too: the CalDAV server's global teardown and closing the pools may not hang the run.
      teardownTimeout: 10_000,
      projects: [
        {
          plugins: [
            cloudflareTest({
              wrangler,
              main,
              miniflare: {
                // A small hourly bound of e-mails per business, so a test reaches it with a burst of tens.
                bindings: { ...bindings, ROUTE_TEST_FILES: routeTestFiles(), EMAIL_HOURLY_LIMIT: "25" },
                serviceBindings: {
                  EMAIL_FILES: async (request: Request) =>
                    Response.json(await capturedFiles(new URL(request.url).searchParams.get("id") ?? "")),
                },
              },
            }),
          ],
          test: {
            name: "workers",
            // A real CalDAV server (Xandikos) on loopback for the staff calendar tests.
            globalSetup: ["./test/setup/caldav-server.ts"],
            include: ["test/**/*.test.ts"],
            exclude: [...configDefaults.exclude, "test/e2e/**", "test/browser/**", ...edgesFiles],
            ...shared,
          },
        },
        {
          plugins: [
            cloudflareTest({
              wrangler,
              main,
              miniflare: {
                // Same namespaces as wrangler.toml, smaller budgets.
                ratelimits: {
                  READ_LIMITER: { namespace_id: "1001", simple: reads },
                  WRITE_LIMITER: { namespace_id: "1002", simple: writes },
                  PAGE_LIMITER: { namespace_id: "1005", simple: page },
                  PAGE_BUSINESS_LIMITER: { namespace_id: "1006", simple: pageBusiness },
                },
                bindings: {
                  ...bindings,
                  READ_BUDGET: `${reads.limit}/${reads.period}`,
                  WRITE_BUDGET: `${writes.limit}/${writes.period}`,
                  // Read back by test/edges/rate-limit-pages.test.ts (the Worker does not use them).
                  PAGE_BUDGET: `${page.limit}/${page.period}`,
                  PAGE_BUSINESS_BUDGET: `${pageBusiness.limit}/${pageBusiness.period}`,
                  CORS_ORIGINS: edgesCorsOrigins.join(","),
                },
              },
            }),
          ],
          test: { name: "edges", include: edgesFiles, ...shared },
        },
      ],
    },
  };
});
