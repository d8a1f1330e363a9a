/**
 * Moves a business to another shard through the running Worker's operator route
 * (docs/operations.md, "Relocating a business"), then follows the relocation until it is done.
 *
 *   ADMIN_TOKEN=… npm run --silent business:relocate -- --business biz_… --shard N [--grace SECONDS] [--url URL] [--json]
 *
 * `--url` is the Worker's origin (default http://127.0.0.1:8787, `npm run dev`); the token is the
 * Worker's ADMIN_TOKEN. Running it again for a relocation under way follows that relocation.
 */
import { parseArgs } from "node:util";
import { CommandError, info, out, runMain, UsageError } from "./lib/cli.ts";

const usage = `Usage:
  ADMIN_TOKEN=… npm run --silent business:relocate -- --business biz_… --shard N [--grace SECONDS] [--url URL] [--json]`;

type RelocationRecord = { step: string; from: number; to: number; error: string | null; attempts: number };

await runMain(async () => {
  const { values } = parseArgs({
    options: {
      business: { type: "string" },
      shard: { type: "string" },
      grace: { type: "string", default: "30" },
      url: { type: "string", default: "http://127.0.0.1:8787" },
      json: { type: "boolean" },
    },
  });
  const token = process.env.ADMIN_TOKEN;
  if (!values.business || values.shard === undefined || !/^\d+$/.test(values.shard)) {
    throw new UsageError("--business and --shard are required.");
  }
  if (!token) throw new UsageError("Set ADMIN_TOKEN to the Worker's operator token.");
  const address = `${values.url}/internal/businesses/${values.business}/relocation`;
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  const started = await fetch(address, {
    method: "POST",
    headers,
    body: JSON.stringify({ shard: Number(values.shard), graceSeconds: Number(values.grace) }),
  });
  if (started.status !== 202)
    throw new CommandError(`The relocation did not start (${started.status}): ${await started.text()}`);
  let relocation = (await started.json()) as RelocationRecord;
  info(`Moving ${values.business} from shard ${relocation.from} to shard ${relocation.to}.`);
  for (let seen = ""; relocation.step !== "done"; ) {
    if (relocation.step !== seen)
      info(`  ${relocation.step}${relocation.error ? ` (retrying: ${relocation.error})` : ""}`);
    seen = relocation.step;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const res = await fetch(address, { headers });
    if (!res.ok) throw new CommandError(`Could not read the relocation (${res.status}): ${await res.text()}`);
    relocation = (await res.json()) as RelocationRecord;
  }
  out(values.json ? JSON.stringify(relocation) : `Moved ${values.business} to shard ${relocation.to}.`);
}, usage);
