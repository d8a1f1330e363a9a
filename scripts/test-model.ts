/**
 * `npm run test:model -- --runs N [--seed S] [--trace]`: the model-based test (test/model) with
 * more sequences than CI runs, a chosen seed (to replay a failure or a hang), or every request
 * printed as it is sent. Runs Vitest in workerd like `npm test`.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "2000" }, seed: { type: "string" }, trace: { type: "boolean" } },
});
const root = path.resolve(import.meta.dirname, "..");
const env = {
  ...process.env,
  MODEL_RUNS: values.runs,
  ...(values.seed ? { MODEL_SEED: values.seed } : {}),
  ...(values.trace ? { MODEL_TRACE: "1" } : {}),
};
const vitest = path.join(root, "node_modules", ".bin", "vitest");
const run = spawnSync(vitest, ["run", "--project", "workers", "test/model"], { cwd: root, env, stdio: "inherit" });
process.exit(run.status ?? 1);
