/**
 * `npm run test:model -- --runs N [--seed S] [--chunk C] [--trace]`: the model-based test
 * (test/model) with more sequences than CI runs. Runs are split into chunks of C sequences
 * (1,000 by default), each in a fresh workerd with a seed of its own (S, S+1, …): one runtime
 * opens a storage file per calendar object, and thousands of businesses in one run exhaust it.
 * Stops at the first chunk that fails, whose output names the seed and the shrunk sequence.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "2000" },
    seed: { type: "string" },
    chunk: { type: "string", default: "1000" },
    trace: { type: "boolean" },
  },
});
const root = path.resolve(import.meta.dirname, "..");
const vitest = path.join(root, "node_modules", ".bin", "vitest");
const total = Number(values.runs);
const chunk = Math.max(1, Number(values.chunk));
const firstSeed = values.seed ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
let sequences = 0;
let commands = 0;
const started = Date.now();
for (let done = 0, i = 0; done < total; done += chunk, i++) {
  const runs = Math.min(chunk, total - done);
  const seed = firstSeed + i;
  const env = {
    ...process.env,
    MODEL_RUNS: String(runs),
    MODEL_SEED: String(seed),
    ...(values.trace ? { MODEL_TRACE: "1" } : {}),
  };
  // Only the random sequences (the catalog's and the limits'): the regression sequences are the same in every chunk.
  const files = ["test/model/catalog.test.ts", "test/model/limits.test.ts"];
  const run = spawnSync(vitest, ["run", "--project", "workers", ...files], {
    cwd: root,
    env,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  const output = `${run.stdout}${run.stderr}`;
  const counts = [...output.matchAll(/model(?: \(limits\))?: (\d+) sequences, (\d+) commands/g)];
  const counted =
    counts.length === files.length
      ? counts.reduce((sum, m) => [sum[0] + Number(m[1]), sum[1] + Number(m[2])], [0, 0])
      : undefined;
  if (run.status !== 0 || !counted) {
    process.stdout.write(output);
    console.error(`model: chunk ${i + 1} (seed ${seed}) failed after ${sequences} sequences passed before it`);
    process.exit(run.status || 1);
  }
  sequences += counted[0] as number;
  commands += counted[1] as number;
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(
    `model: chunk ${i + 1} seed ${seed}: ${counted[0]} sequences; ${sequences} in ${minutes} min (${done + runs} of ${total} asked)`,
  );
}
console.log(`model: ${sequences} sequences, ${commands} commands, 0 violations (seeds ${firstSeed}…)`);
