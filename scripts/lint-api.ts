/**
 * `npm run lint:api`: serves the production bundle, fetches the OpenAPI document it publishes at
 * /api/v1/openapi.json, and lints that document with Redocly (rules in redocly.yaml).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startBenchServer } from "./bench/server.ts";

const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, "dist", "openapi.json");
const server = await startBenchServer();
try {
  const res = await fetch(`${server.url}/api/v1/openapi.json`);
  if (!res.ok) throw new Error(`GET /api/v1/openapi.json answered ${res.status}`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(await res.json(), null, 2));
} finally {
  await server.dispose();
}
const lint = spawnSync(path.join(root, "node_modules", ".bin", "redocly"), ["lint", out, "--format", "stylish"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
});
process.exit(lint.status ?? 1);
