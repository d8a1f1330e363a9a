/**
 * The benchmark's server: the production bundle (`wrangler deploy --dry-run`) on workerd through
 * Miniflare's API, with local D1 and Durable Objects in a fresh temp folder — the runtime without
 * `wrangler dev`'s proxy hop.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { newBusiness } from "../../src/business/new-business.ts";
import { statementsFloorWorkers } from "./statements-floor.ts";

const root = path.resolve(import.meta.dirname, "..", "..");
const quietWrangler = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  WRANGLER_HIDE_BANNER: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};

/** The operator token of the throwaway bench deployment (for bulk imports of seed data). */
export const BENCH_ADMIN_TOKEN = "bench-admin-token";

export type BenchServer = {
  url: string;
  bundle: { raw: number; gzip: number };
  /** A new business with one API key on `shard` (0 unless told), inserted the way the account CLI does. */
  createAccount(name: string, shard?: number): Promise<string>;
  /** The business of a key `createAccount` made. */
  businessOf(key: string): string;
  /** Runs one SQL statement on the local D1 (seeding rows straight into it). */
  execute(sql: string, ...params: unknown[]): Promise<void>;
  /** Runs one SQL statement on the directory's D1 (members and their sessions live there). */
  executeOnDirectory(sql: string, ...params: unknown[]): Promise<void>;
  /** The number `n` one SQL query on the local D1 answers (`SELECT count(*) AS n …`). */
  count(sql: string, ...params: unknown[]): Promise<number>;
  /** Rows D1 read per request, from the request log lines since the last reset. */
  rowsRead: { reset(): void; perRequest(): number | undefined };
  dispose(): Promise<void>;
};

/**
 * Options for a bench server; `inspectorPort` opens workerd's inspector to the worker's isolate
 * and serves the bundle unminified, so a CPU profile names functions as the source does.
 */
export type ServeOptions = {
  inspectorPort?: number;
  /**
   * The checkout whose bundle, wrangler.toml and migrations are served (default: this one); the
   * bench against an earlier commit serves that commit's tree (scripts/bench/baseline.ts).
   */
  root?: string;
};

/** A calibration Worker's options: `assets: false` leaves out the static-assets binding and its router. */
export type CalibrationOptions = ServeOptions & { assets?: boolean };

/** The Worker's Miniflare options as `wrangler.toml` gives them (assets included). */
function wranglerWorkerOptions(checkout = root) {
  // Module rules describe unbundled sources; the dry-run output is one bundled module.
  const { modulesRules: _rules, ...workerOptions } = unstable_getMiniflareWorkerOptions(
    path.join(checkout, "wrangler.toml"),
  ).workerOptions;
  return workerOptions;
}

/** Miniflare options shared by the API and the calibration Worker: loopback, no access log printed. */
function serverOptions(options: ServeOptions, onLog: (message: string) => void = () => {}) {
  return {
    host: "127.0.0.1",
    port: 0,
    // The access log is one line per request; printing it here would measure the terminal.
    handleStructuredLogs: ({ message }: { message: string }) => onLog(message),
    // workerd serves its V8 inspector itself on this port, one path per worker (`/core:user:<name>`).
    ...(options.inspectorPort ? { inspectorPort: options.inspectorPort } : {}),
  };
}

/** The name of the API's worker in the bench's Miniflare (the inspector path). */
export const API_WORKER = "booking-api";
/** The name of the one-line calibration worker. */
export const FLOOR_WORKER = "floor";

/**
 * A one-line Worker (`new Response("ok")`) on the same workerd with the same Miniflare options
 * as the API — assets included — minus the bindings whose classes and handlers only the API
 * exports: the runtime's floor for one request, measured in the same run.
 */
export async function startCalibrationServer(options: CalibrationOptions = {}) {
  const work = mkdtempSync(path.join(tmpdir(), "booking-floor-"));
  const {
    durableObjects: _do,
    queueConsumers: _qc,
    triggers: _t,
    assets,
    ...workerOptions
  } = wranglerWorkerOptions() as Record<string, unknown>;
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      ...workerOptions,
      ...(options.assets === false ? {} : { assets }),
      name: FLOOR_WORKER,
      modules: true,
      script: 'export default { fetch: () => new Response("ok") };',
      resourcePersistencePath: path.join(work, "state"),
      ...serverOptions(options),
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  const url = (await mf.ready).toString().replace(/\/$/, "");
  return {
    url,
    async dispose() {
      await mf.dispose();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** Builds the Worker and serves it on workerd with fresh local storage. */
export async function startBenchServer(options: ServeOptions = {}): Promise<BenchServer> {
  const checkout = options.root ?? root;
  const work = mkdtempSync(path.join(tmpdir(), "booking-bench-"));
  const outdir = path.join(work, "build");
  const build = spawnSync(
    path.join(root, "node_modules", ".bin", "wrangler"),
    ["deploy", "--dry-run", "--outdir", outdir, ...(options.inspectorPort ? ["--minify=false"] : [])],
    {
      cwd: checkout,
      env: { ...process.env, ...quietWrangler },
      encoding: "utf8",
    },
  );
  if (build.status !== 0) throw new Error(`wrangler build failed:\n${build.stderr}`);
  const bundle = readFileSync(path.join(outdir, "index.js"));

  // As Cloudflare routes it (`run_worker_first` for the API paths): the API Worker answers API
  // requests with no assets router in front; the static files come from a worker of their own
  // matched on their path. Miniflare puts its router in front of every request of a worker with
  // assets, whatever `run_worker_first` says (docs/performance.md, "The static-assets router").
  const { assets, ...workerOptions } = wranglerWorkerOptions(checkout);
  // The load comes from one API key: lift its per-key budgets so the bench measures the API, not the limiter.
  const unlimited = { limit: 1_000_000_000, period: 60 };
  const ratelimits = Object.fromEntries(
    Object.entries(workerOptions.ratelimits ?? {}).map(([name, binding]) => [name, { ...binding, simple: unlimited }]),
  );
  // The request log's `rowsRead` (D1's rows read for the request's batched reads), summed.
  const rows = { requests: 0, read: 0 };
  const onLog = (message: string) => {
    if (!message.includes('"rowsRead"')) return;
    try {
      const line = JSON.parse(message) as { rowsRead?: number };
      rows.requests++;
      rows.read += line.rowsRead ?? 0;
    } catch {}
  };
  const shared = { ...serverOptions(options, onLog), resourcePersistencePath: path.join(work, "state") };
  const api = {
    ...workerOptions,
    ratelimits,
    bindings: {
      ...(workerOptions.bindings as object),
      READ_BUDGET: "1000000000/60",
      WRITE_BUDGET: "1000000000/60",
      // One bench business sends an e-mail per create: lift its hourly bound as the budgets are.
      EMAIL_HOURLY_LIMIT: "1000000000",
      ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      // The connected calendar scenarios connect a CalDAV server on this machine (scripts/bench/calendars.ts).
      WEBHOOKS_ALLOW_LOCAL: "true",
      // Booking pages need manage links on (their holds' tokens and confirmations use them).
      MANAGE_LINK_SECRET: "bench-manage-link-secret-0123456789abcdef",
      PUBLIC_URL: "http://127.0.0.1",
    },
  };
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      ...shared,
      workers: [
        { ...api, name: API_WORKER, modules: true, scriptPath: path.join(outdir, "index.js"), modulesRoot: outdir },
        {
          name: "docs-assets",
          compatibilityDate: workerOptions.compatibilityDate,
          assets,
          routes: ["*/docs-assets/*"],
          modules: true,
          // Miniflare's routes reach a worker itself, not its assets router: the worker hands over.
          script: "export default { fetch: (request, env) => env.ASSETS.fetch(request) };",
        },
        // A list's statements alone, with the same bindings: its floor (scripts/bench/statements-floor.ts).
        ...statementsFloorWorkers(api, API_WORKER, outdir),
      ],
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  const url = (await mf.ready).toString().replace(/\/$/, "");
  // The bench's businesses live on shard 0; the directory names them (docs/operations.md, "Shards").
  // An earlier revision served beside this one (--baseline) may predate shards: one database then.
  const sharded = /binding\s*=\s*"DB_0"/.test(readFileSync(path.join(checkout, "wrangler.toml"), "utf8"));
  const names = sharded ? ["DB", "DB_0", "DB_1"] : ["DB"];
  const directory = await mf.getD1Database("DB");
  const db = await mf.getD1Database(sharded ? "DB_0" : "DB");
  const businesses = new Map<string, string>();
  for (const name of names) await applyMigrations(await mf.getD1Database(name), checkout);

  return {
    url,
    bundle: { raw: bundle.length, gzip: gzipSync(bundle).length },
    async createAccount(name, shard = 0) {
      const account = await newBusiness(name, "test");
      const target = shard === 0 ? db : await mf.getD1Database(`DB_${shard}`);
      const b = account.business;
      const k = account.apiKey;
      // Its shard first, then the directory that names it (docs/operations.md, "Shards").
      for (const each of sharded ? [target, directory] : [directory]) {
        await each.batch([
          sharded
            ? each
                .prepare("INSERT INTO businesses (id, name, created_at, updated_at, shard) VALUES (?, ?, ?, ?, ?)")
                .bind(b.id, b.name, b.createdAt, b.updatedAt, shard)
            : each
                .prepare("INSERT INTO businesses (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)")
                .bind(b.id, b.name, b.createdAt, b.updatedAt),
          each
            .prepare("INSERT INTO api_keys (id, business_id, key_hash, key_prefix, created_at) VALUES (?, ?, ?, ?, ?)")
            .bind(k.id, k.businessId, k.keyHash, k.keyPrefix, k.createdAt),
        ]);
      }
      businesses.set(account.plaintextKey, b.id);
      return account.plaintextKey;
    },
    businessOf: (key) => businesses.get(key) ?? "",
    async execute(sql, ...params) {
      await db
        .prepare(sql)
        .bind(...params)
        .run();
    },
    async executeOnDirectory(sql, ...params) {
      await directory
        .prepare(sql)
        .bind(...params)
        .run();
    },
    async count(sql, ...params) {
      const row = await db
        .prepare(sql)
        .bind(...params)
        .first<{ n: number }>();
      return row?.n ?? 0;
    },
    rowsRead: {
      reset() {
        rows.requests = 0;
        rows.read = 0;
      },
      perRequest: () => (rows.requests === 0 ? undefined : Math.round(rows.read / rows.requests)),
    },
    async dispose() {
      await mf.dispose();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** Applies migrations/*.sql in order, as `wrangler d1 migrations apply` would. */
async function applyMigrations(db: Awaited<ReturnType<Miniflare["getD1Database"]>>, checkout: string): Promise<void> {
  const dir = path.join(checkout, "migrations");
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()) {
    const statements = readFileSync(path.join(dir, file), "utf8")
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter(Boolean);
    await db.batch(statements.map((s) => db.prepare(s)));
  }
}
