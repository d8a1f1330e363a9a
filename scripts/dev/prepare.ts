/**
 * Local D1 for `npm run dev`: every migration on the directory (`DB`) and each shard (`DB_0`,
 * `DB_1`, …) and the demo business "Demo Salon" with its fixed, local-only key (scripts/lib/demo.ts),
 * done while wrangler starts. A state folder prepared once is marked with a fingerprint of the
 * migrations, the demo account and the shards (scripts/lib/dev-state.ts), so later starts skip
 * the work until one of them changes.
 */
import { apiKeyRecord, insertApiKeySql, insertBusinessSql } from "../lib/businesses.ts";
import { DEMO_API_KEY, DEMO_API_KEY_ID, DEMO_BUSINESS_ID, DEMO_BUSINESS_NAME, DEMO_CREATED_AT } from "../lib/demo.ts";
import {
  clearPreparing,
  hasDatabase,
  isPrepared,
  markPrepared,
  markPreparing,
  newDatabaseStatements,
  preparationFingerprint,
} from "../lib/dev-state.ts";
import { batchLocalD1 } from "../lib/local-d1.ts";
import { applyMigrations, d1Binding, executeSql, shardBindings } from "../lib/wrangler.ts";
import { log, sinceStart } from "./log.ts";
import type { DevOptions } from "./options.ts";

/** The statements that create the demo business and its fixed key, re-activating the key if it was revoked. */
async function demoAccountStatements(): Promise<string[]> {
  const key = await apiKeyRecord(DEMO_API_KEY_ID, DEMO_BUSINESS_ID, DEMO_API_KEY, new Date(DEMO_CREATED_AT));
  const business = {
    id: DEMO_BUSINESS_ID,
    name: DEMO_BUSINESS_NAME,
    createdAt: DEMO_CREATED_AT,
    updatedAt: DEMO_CREATED_AT,
  };
  const upsertKey = insertApiKeySql(key).replace(/;$/, " ON CONFLICT(id) DO UPDATE SET revoked_at = NULL;");
  return [insertBusinessSql(business, true), upsertKey];
}

/**
 * Migrations and the demo account, unless this state folder already has both. While it writes,
 * the folder is marked as being prepared, so the account commands run beside it wait.
 */
export async function prepareState(options: DevOptions): Promise<void> {
  const { state } = options;
  const demoStatements = await demoAccountStatements();
  const demoSql = demoStatements.join("\n");
  // A shard added to wrangler.toml prepares the state again.
  const fingerprint = preparationFingerprint(`${demoSql}\n-- shards: ${shardBindings().join(",")}`);
  if (isPrepared(state, fingerprint)) {
    log("migrations and the demo account are already in place.");
    return;
  }
  markPreparing(state);
  try {
    await writeState(options, demoStatements);
  } finally {
    clearPreparing(state);
  }
  markPrepared(state, fingerprint);
  log(`local D1 prepared (${sinceStart()} after start).`);
}

/**
 * Makes a new state in one transaction per database (one workerd writing all of them, the fast
 * path), or brings an existing one up to date with wrangler's own migration command.
 */
async function writeState({ state, persistTo, target }: DevOptions, demoStatements: string[]): Promise<void> {
  const where = `local D1 (${persistTo ?? ".wrangler/state"})`;
  if (!hasDatabase(state)) {
    log(`creating ${where} with every migration and the demo business "${DEMO_BUSINESS_NAME}" while wrangler starts…`);
    await batchLocalD1(state, newStateStatements(demoStatements));
  } else {
    const demoSql = demoStatements.join("\n");
    log(`applying migrations to ${where} (the directory and every shard) while wrangler starts…`);
    await applyMigrations(target);
    log(`ensuring the demo business "${DEMO_BUSINESS_NAME}" and its key…`);
    await executeSql(target, demoSql, "DB_0");
    await executeSql(target, demoSql);
  }
}

/**
 * Each database of a new state, as one transaction: every migration, and on the directory and
 * shard 0 (where the demo business lives) its rows; the other shards start empty.
 */
function newStateStatements(demoStatements: string[]): Record<string, string[]> {
  const [first, ...others] = shardBindings();
  const statements: Record<string, string[]> = { [d1Binding]: newDatabaseStatements(demoStatements) };
  if (first) statements[first] = newDatabaseStatements(demoStatements);
  for (const binding of others) statements[binding] = newDatabaseStatements([]);
  return statements;
}
