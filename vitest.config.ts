import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig(async () => {
  // Read once here (Node), applied inside the Workers runtime by test/setup/apply-migrations.ts.
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: { bindings: { TEST_MIGRATIONS: migrations, ADMIN_TOKEN: "test-admin-token" } },
      }),
    ],
    test: {
      include: ["test/**/*.test.ts"],
      exclude: ["test/e2e/**"],
      setupFiles: ["./test/setup/apply-migrations.ts"],
      testTimeout: 30_000,
      // The one-line-per-request access log is for production; keep test output readable.
      onConsoleLog: (log: string) => !log.includes('"msg":"request"'),
    },
  };
});
