/**
 * Business accounts and API keys, against local D1 (default) or remote D1 (`--remote`).
 *
 *   npm run --silent business:create -- --name "Acme" [--owner-email EMAIL] [--mode live|test] [--json] [--persist-to DIR | --remote]
 *   npm run --silent business:key -- issue  --business biz_… [--mode live|test] [--json] [--persist-to DIR | --remote]
 *   npm run --silent business:key -- revoke (--key bk_… | --key-id key_…) [--json] [--persist-to DIR | --remote]
 *   npm run --silent business:key -- list   --business biz_… [--json] [--persist-to DIR | --remote]
 *
 * Keys are printed once and stored only as SHA-256 hashes. Local runs apply migrations first (to
 * the directory and every shard), so a brand-new persist directory works. A new business goes to
 * the shard with the fewest businesses (src/business/new-business.ts `leastFullShard`); its rows are
 * written to that shard first, then to the directory, so a crash between leaves only an unused
 * row on the shard, never a key that names a shard without its business. With `--json`, stdout carries exactly one JSON line;
 * everything else (progress, wrangler's output on failure) goes to stderr.
 */

import { parseArgs } from "node:util";
import { type Scope, scopes } from "../src/types/scopes.ts";
import {
  apiKeyIdPattern,
  apiKeyPattern,
  businessIdPattern,
  insertApiKeySql,
  insertBusinessSql,
  type KeyMode,
  leastFullShard,
  newApiKey,
  newBusiness,
  sha256Hex,
} from "./lib/businesses.ts";
import { asUsageError, CommandError, info, out, runMain, UsageError } from "./lib/cli.ts";
import { ownerSql } from "./lib/owner.ts";
import {
  applyMigrations,
  type D1Target,
  describeTarget,
  executeSql,
  type Row,
  shardBindings,
  sql,
} from "./lib/wrangler.ts";

const usage = `Usage:
  npm run --silent business:create -- --name NAME [--owner-email EMAIL] [--mode live|test] [--json] [--persist-to DIR | --remote]
  npm run --silent business:key -- issue  --business biz_… [--scopes S,S…] [--name NAME] [--mode live|test] [--json] [--persist-to DIR | --remote]
  npm run --silent business:key -- revoke (--key bk_… | --key-id key_…) [--json] [--persist-to DIR | --remote]
  npm run --silent business:key -- list   --business biz_… [--json] [--persist-to DIR | --remote]

Local D1 (wrangler's .wrangler/state unless --persist-to; relative paths are taken from the
repository root, as with npm run) is the default; --remote uses the
database configured in wrangler.toml. Keys are shown once and stored only as SHA-256 hashes.
A key has every scope unless --scopes lists some (${scopes.join(", ")}).`;

const commonOptions = {
  json: { type: "boolean" },
  remote: { type: "boolean" },
  "persist-to": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const commands = {
  create: { ...commonOptions, name: { type: "string" }, mode: { type: "string" }, "owner-email": { type: "string" } },
  issue: {
    ...commonOptions,
    business: { type: "string" },
    mode: { type: "string" },
    scopes: { type: "string" },
    name: { type: "string" },
  },
  revoke: { ...commonOptions, key: { type: "string" }, "key-id": { type: "string" } },
  list: { ...commonOptions, business: { type: "string" } },
} as const;

type Command = keyof typeof commands;

function parse<C extends Command>(command: C, args: string[]) {
  try {
    return parseArgs({ args, options: commands[command], strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw asUsageError(error);
  }
}

function targetOf(values: { remote?: boolean | undefined; "persist-to"?: string | undefined }): D1Target {
  if (values.remote && values["persist-to"] !== undefined) {
    throw new UsageError("--persist-to applies to local D1 only; do not combine it with --remote.");
  }
  if (values.remote) return { remote: true };
  const persistTo = values["persist-to"];
  if (persistTo !== undefined && persistTo.trim() === "") throw new UsageError("--persist-to needs a directory.");
  return { remote: false, persistTo };
}

function modeOf(value: string | undefined): KeyMode {
  if (value === undefined) return "live";
  if (value === "live" || value === "test") return value;
  throw new UsageError(`--mode must be "live" or "test", not "${value}".`);
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === "") throw new UsageError(`${flag} is required.`);
  return value;
}

function businessIdOf(value: string | undefined): string {
  const id = required(value, "--business").trim();
  if (!businessIdPattern.test(id))
    throw new UsageError(`--business must be a business id such as biz_01…, not "${id}".`);
  return id;
}

/** Local runs bring the schema up to date first; a remote database is migrated on purpose only. */
async function prepare(target: D1Target): Promise<void> {
  if (target.remote) return;
  info(`Applying migrations to ${describeTarget(target)}…`);
  await applyMigrations(target);
}

function rowsOf(results: { results: Row[] }[], index: number): Row[] {
  return results[index]?.results ?? [];
}

async function create(args: string[]): Promise<void> {
  const values = parse("create", args);
  const name = required(values.name, "--name").trim();
  if (name.length > 200) throw new UsageError("--name must be at most 200 characters.");
  const mode = modeOf(values.mode);
  const target = targetOf(values);
  const ownerEmail = values["owner-email"]?.trim();
  if (ownerEmail !== undefined && !/^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/.test(ownerEmail)) {
    throw new UsageError("--owner-email needs an e-mail address such as owner@example.com.");
  }

  await prepare(target);
  const account = await newBusiness(name, mode);
  const counted = await executeSql(target, "SELECT shard, count(*) AS n FROM businesses GROUP BY shard;");
  const counts = new Map(rowsOf(counted, 0).map((row) => [Number(row.shard), Number(row.n)]));
  const shard = leastFullShard(counts, shardBindings().length);
  const business = { ...account.business, shard };
  info(`Creating business "${name}" on shard ${shard} in ${describeTarget(target)}…`);
  const rows = `${insertBusinessSql(business)}\n${insertApiKeySql(account.apiKey)}`;
  await executeSql(target, rows, `DB_${shard}`);
  await executeSql(target, rows);
  // Members live in the directory only (docs/members.md).
  const owner = ownerEmail ? await ownerSql(account.business.id, ownerEmail, target) : undefined;
  if (owner) await executeSql(target, owner.rows);

  if (values.json) {
    const signIn = owner ? { ownerId: owner.memberId, signInLink: owner.link ?? null } : {};
    out(JSON.stringify({ businessId: account.business.id, apiKey: account.plaintextKey, shard, ...signIn }));
    return;
  }
  out(`Created business "${name}" (${account.business.id}) on shard ${shard}.`);
  out(`API key (shown once, store it now): ${account.plaintextKey}`);
  if (owner?.link) out(`Owner ${ownerEmail}: sign in within 15 minutes, once, at ${owner.link}`);
  else if (owner) out(`Owner ${ownerEmail}: ask for a sign-in link at ${owner.signInPage}`);
}

/** `--scopes a,b`: the scopes listed, each known (a usage error names one that is not); none given is every scope. */
function scopesOf(value: string | undefined): Scope[] | null {
  if (value === undefined) return null;
  const named = value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const unknown = named.find((s) => !(scopes as readonly string[]).includes(s));
  if (unknown !== undefined || named.length === 0) {
    throw new UsageError(
      `--scopes takes a comma-separated list of ${scopes.join(", ")}${unknown ? `, not "${unknown}"` : ""}.`,
    );
  }
  return scopes.filter((s) => named.includes(s));
}

async function issue(args: string[]): Promise<void> {
  const values = parse("issue", args);
  const businessId = businessIdOf(values.business);
  const mode = modeOf(values.mode);
  const target = targetOf(values);

  await prepare(target);
  const grant = { name: values.name?.trim() || null, scopes: scopesOf(values.scopes) };
  const { record, plaintext } = await newApiKey(businessId, mode, new Date(), grant);
  const found = await executeSql(target, sql`SELECT shard FROM businesses WHERE id = ${businessId};`);
  const shard = rowsOf(found, 0)[0]?.shard;
  if (shard === undefined) throw new CommandError(`no business ${businessId} in ${describeTarget(target)}.`);
  // Insert only if the business exists there, then read back whether the row is: one round trip
  // each, the shard's first (the directory's row is what lets the key in).
  const listed = record.scopes === null ? null : JSON.stringify(record.scopes);
  const insert = sql`INSERT INTO api_keys (id, business_id, key_hash, key_prefix, name, scopes, created_at, revoked_at)
      SELECT ${record.id}, ${record.businessId}, ${record.keyHash}, ${record.keyPrefix}, ${record.name}, ${listed}, ${record.createdAt}, NULL
      WHERE EXISTS (SELECT 1 FROM businesses WHERE id = ${businessId});
    SELECT id FROM api_keys WHERE id = ${record.id};`;
  for (const binding of [`DB_${Number(shard)}`, undefined]) {
    if (rowsOf(await executeSql(target, insert, binding), 1).length === 0) {
      throw new CommandError(
        `no business ${businessId} on ${binding ?? "the directory"} in ${describeTarget(target)}.`,
      );
    }
  }

  if (values.json) {
    out(JSON.stringify({ businessId, keyId: record.id, apiKey: plaintext, scopes: record.scopes ?? [...scopes] }));
    return;
  }
  out(`Issued key ${record.id} for ${businessId} (${(record.scopes ?? scopes).join(", ")}).`);
  out(`API key (shown once, store it now): ${plaintext}`);
}

async function revoke(args: string[]): Promise<void> {
  const values = parse("revoke", args);
  const target = targetOf(values);
  if ((values.key === undefined) === (values["key-id"] === undefined)) {
    throw new UsageError("give exactly one of --key bk_… or --key-id key_….");
  }
  let where: string;
  let label: string;
  if (values.key !== undefined) {
    const key = values.key.trim();
    if (!apiKeyPattern.test(key)) throw new UsageError("--key must be an API key such as bk_live_….");
    where = sql`key_hash = ${await sha256Hex(key)}`;
    label = `${key.slice(0, 12)}…`;
  } else {
    const id = (values["key-id"] ?? "").trim();
    if (!apiKeyIdPattern.test(id)) throw new UsageError(`--key-id must be a key id such as key_01…, not "${id}".`);
    where = sql`id = ${id}`;
    label = id;
  }

  await prepare(target);
  const now = new Date().toISOString();
  const revocation = `UPDATE api_keys SET revoked_at = ${sql`${now}`} WHERE ${where} AND revoked_at IS NULL;
    SELECT id, business_id, key_prefix, revoked_at FROM api_keys WHERE ${where};`;
  const found = await executeSql(
    target,
    `SELECT b.shard AS shard FROM api_keys k JOIN businesses b ON b.id = k.business_id WHERE k.${where.trim()};`,
  );
  const shard = rowsOf(found, 0)[0]?.shard;
  if (shard === undefined) throw new CommandError(`no API key ${label} in ${describeTarget(target)}.`);
  // The shard's row is the one the key check reads: revoked there first, then in the directory.
  await executeSql(target, revocation, `DB_${Number(shard)}`);
  const results = await executeSql(target, revocation);
  const row = rowsOf(results, 1)[0];
  if (!row) throw new CommandError(`no API key ${label} in ${describeTarget(target)}.`);
  const revokedAt = String(row.revoked_at);
  const already = revokedAt !== now;

  if (values.json) {
    out(JSON.stringify({ keyId: row.id, businessId: row.business_id, revokedAt, alreadyRevoked: already }));
    return;
  }
  out(
    already
      ? `Key ${row.id} (${row.key_prefix}…) of ${row.business_id} was already revoked at ${revokedAt}.`
      : `Revoked key ${row.id} (${row.key_prefix}…) of ${row.business_id}.`,
  );
}

async function list(args: string[]): Promise<void> {
  const values = parse("list", args);
  const businessId = businessIdOf(values.business);
  const target = targetOf(values);

  await prepare(target);
  const results = await executeSql(
    target,
    sql`SELECT id, name FROM businesses WHERE id = ${businessId};
    SELECT id, key_prefix, scopes, created_at, revoked_at FROM api_keys WHERE business_id = ${businessId} ORDER BY created_at, id;`,
  );
  const business = rowsOf(results, 0)[0];
  if (!business) throw new CommandError(`no business ${businessId} in ${describeTarget(target)}.`);
  const keys = rowsOf(results, 1).map((k) => ({
    id: String(k.id),
    prefix: String(k.key_prefix),
    scopes: k.scopes === null ? [...scopes] : (JSON.parse(String(k.scopes)) as Scope[]),
    createdAt: String(k.created_at),
    revokedAt: k.revoked_at === null ? null : String(k.revoked_at),
  }));

  if (values.json) {
    out(JSON.stringify({ businessId, name: business.name, keys }));
    return;
  }
  out(`${business.name} (${businessId}): ${keys.length} key(s)`);
  if (keys.length === 0) return;
  const header = ["KEY ID", "PREFIX", "CREATED", "REVOKED", "SCOPES"];
  const rows = keys.map((k) => [
    k.id,
    `${k.prefix}…`,
    k.createdAt,
    k.revokedAt ?? "-",
    k.scopes.length === scopes.length ? "all" : k.scopes.join(","),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  for (const r of [header, ...rows])
    out(
      r
        .map((cell, i) => cell.padEnd(widths[i] as number))
        .join("  ")
        .trimEnd(),
    );
}

const handlers: Record<Command, (args: string[]) => Promise<void>> = { create, issue, revoke, list };

await runMain(async () => {
  const [command, ...args] = process.argv.slice(2);
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    if (command === undefined) throw new UsageError("missing command: create, issue, revoke or list.");
    out(usage);
    return;
  }
  if (!Object.hasOwn(handlers, command)) {
    throw new UsageError(`unknown command "${command}"; use create, issue, revoke or list.`);
  }
  if (args.includes("--help") || args.includes("-h")) {
    out(usage);
    return;
  }
  await handlers[command as Command](args);
}, usage);
