/**
 * `npm run db:migrate:local` / `npm run db:migrate:remote`: applies migrations/ to the directory
 * (`DB`) and to every shard of wrangler.toml (`DB_0`, `DB_1`, …), one after another. The same
 * migrations make every database, so a shard added later is brought up to date by the same run.
 */
import { info, runMain } from "./lib/cli.ts";
import { applyMigrations, type D1Target, d1Binding, describeTarget, shardBindings } from "./lib/wrangler.ts";

await runMain(async () => {
  const target: D1Target = process.argv.includes("--remote") ? { remote: true } : { remote: false };
  for (const binding of [d1Binding, ...shardBindings()]) {
    info(`Applying migrations to ${binding} in ${describeTarget(target)}…`);
    await applyMigrations(target, binding);
  }
}, "usage: node scripts/migrate.ts [--remote]");
