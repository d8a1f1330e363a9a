/**
 * Remembers that a local state folder already has every migration and the demo account, so a
 * second `npm run dev` skips the two wrangler runs that would find nothing to do (several
 * seconds). The mark is a fingerprint of migrations/*.sql and the demo account's SQL, kept
 * beside the local D1 files: deleting the state, adding or editing a migration or changing the
 * demo account makes the next start do the work again.
 *
 * A brand-new state gets everything in one transaction per database, all written by one
 * workerd (scripts/lib/local-d1.ts): the migrations exactly as `wrangler d1 migrations apply`
 * runs them (each file followed by its row in wrangler's `d1_migrations` table, so later
 * `npm run db:migrate:local` runs see them as applied), then the demo account.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { repoRoot } from "./cli.ts";

/** Where wrangler keeps local state for `--persist-to` (relative to the repository), or its default. */
export function stateDir(persistTo: string | undefined): string {
  return path.resolve(repoRoot, persistTo ?? path.join(".wrangler", "state"));
}

const d1Dir = (state: string) => path.join(state, "v3", "d1");
const markFile = (state: string) => path.join(d1Dir(state), "booking-api-dev-ready.json");
const preparingFile = (state: string) => path.join(d1Dir(state), "booking-api-dev-preparing.json");

const migrationsDir = path.join(repoRoot, "migrations");
const migrationFiles = () =>
  readdirSync(migrationsDir)
    .filter((n) => n.endsWith(".sql"))
    .sort();

/** A hash of what preparing the state applies: the migration files and the demo account's SQL. */
export function preparationFingerprint(demoSql: string): string {
  const hash = createHash("sha256");
  for (const name of migrationFiles()) {
    hash
      .update(`${name}\0`)
      .update(readFileSync(path.join(migrationsDir, name)))
      .update("\0");
  }
  return hash.update(demoSql).digest("hex");
}

/** True when the state already holds a local D1 database file. */
export function hasDatabase(state: string): boolean {
  const databases = path.join(d1Dir(state), "miniflare-D1DatabaseObject");
  return existsSync(databases) && readdirSync(databases).some((n) => n.endsWith(".sqlite") && n !== "metadata.sqlite");
}

/**
 * Every migration as wrangler applies it to a new database (its table, then each file's
 * statements and its bookkeeping row, in name order), followed by `extra`, one statement each.
 */
export function newDatabaseStatements(extra: readonly string[]): string[] {
  const statements = [
    'CREATE TABLE IF NOT EXISTS "d1_migrations"(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL);',
  ];
  for (const name of migrationFiles()) {
    const migration = readFileSync(path.join(migrationsDir, name), "utf8");
    // drizzle-kit's breakpoints split a file into statements (a trigger's body holds `;`s).
    statements.push(
      ...migration
        .split("--> statement-breakpoint")
        .map((statement) => statement.trim())
        .filter(Boolean),
      `INSERT INTO "d1_migrations" (name) values ('${name.replace(/'/g, "''")}');`,
    );
  }
  return [...statements, ...extra];
}

/** True when the state holds a local D1 database that was prepared with this fingerprint. */
export function isPrepared(state: string, fingerprint: string): boolean {
  if (!hasDatabase(state)) return false;
  try {
    const mark = JSON.parse(readFileSync(markFile(state), "utf8")) as { fingerprint?: unknown };
    return mark.fingerprint === fingerprint;
  } catch {
    return false;
  }
}

export function markPrepared(state: string, fingerprint: string): void {
  mkdirSync(d1Dir(state), { recursive: true });
  writeFileSync(markFile(state), `${JSON.stringify({ fingerprint, preparedAt: new Date().toISOString() })}\n`);
}

/** Makes the next start prepare the state again (e.g. after the demo key was revoked). */
export function forgetPrepared(state: string): void {
  rmSync(markFile(state), { force: true });
}

/**
 * A dotenv file in the local state folder with this state's own `MANAGE_LINK_SECRET` and
 * `CALENDAR_SECRET` (random, made at the first start, kept with the data they sign links and seal
 * calendar passwords for, so both survive restarts; a secret missing from an older state's file
 * is added). Handed to wrangler as an env file, so wrangler shows them as hidden secrets, never
 * their values.
 */
export function devSecretsFile(state: string): string {
  const file = path.join(state, "dev-secrets.env");
  mkdirSync(state, { recursive: true });
  const current = existsSync(file) ? readFileSync(file, "utf8") : "";
  const missing = ["MANAGE_LINK_SECRET", "CALENDAR_SECRET"].filter((name) => !current.includes(`${name}=`));
  if (missing.length > 0) {
    const lines = missing.map((name) => `${name}=${randomBytes(32).toString("hex")}\n`).join("");
    writeFileSync(file, current + lines, { mode: 0o600 });
  }
  return file;
}

/**
 * Says that this process is preparing the state (`npm run dev`): a fresh state's tables are made
 * in one transaction per database, which a concurrent `wrangler d1 migrations apply` would race (it
 * would create the same tables, and one of the two would fail).
 */
export function markPreparing(state: string): void {
  mkdirSync(d1Dir(state), { recursive: true });
  writeFileSync(preparingFile(state), `${JSON.stringify({ pid: process.pid })}\n`);
}

export function clearPreparing(state: string): void {
  rmSync(preparingFile(state), { force: true });
}

/** The process preparing the state right now, if one is (a mark left by a process gone does not count). */
function preparingPid(state: string): number | undefined {
  try {
    const { pid } = JSON.parse(readFileSync(preparingFile(state), "utf8")) as { pid?: unknown };
    // Its own mark does not count (scripts/dev/prepare.ts migrates an existing state while it holds it).
    if (typeof pid !== "number" || pid === process.pid) return undefined;
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/**
 * Waits, at most `timeoutMs`, while `npm run dev` prepares this state; `onWait` is called once if
 * it has to. Returns false if it was still preparing at the end.
 */
export async function waitWhilePreparing(state: string, timeoutMs: number, onWait: () => void): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let told = false;
  while (preparingPid(state) !== undefined) {
    if (Date.now() >= deadline) return false;
    if (!told) onWait();
    told = true;
    await sleep(200);
  }
  return true;
}
