/**
 * `npm run test:e2e`: contract tests in Node (no workerd plugin) against `npm run dev`, started
 * once by test/e2e/global-setup.ts. Files run one after another: they share one dev server.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    globalSetup: ["./test/e2e/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 60_000,
  },
});
