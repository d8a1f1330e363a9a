/**
 * The floor of a list: a Worker that sends the very statements a list request sends, with the
 * same bindings, and nothing else. Two workers beside the API in the bench's Miniflare:
 *
 * - the recorder (`/__record/…`) runs the API's own bundle with a D1 binding and rate limiters
 *   that write down every call (SQL, parameters, batch or single, and which calls overlapped);
 * - the replayer (`/__floor/run/<name>`) sends a recorded plan: the same rate-limit calls and the
 *   same statements in the same batches, overlapping where the API's did, on the same database.
 *
 * So a list row's ratio to its replay is what the API's own code costs on top of D1 and the
 * limiter: routing, validation, key check, mapping rows and JSON.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";

/** The recorder's route prefix and the replayer's. */
export const RECORD_PREFIX = "/__record";
export const FLOOR_PREFIX = "/__floor";

/** The recorder's module: the API bundle (`./index.js` beside it) with recording bindings. */
const recorderSource = `
import api from "./index.js";
let log = null;
let clock = 0;
const track = (entry, promise) => {
  entry.start = clock++;
  log?.push(entry);
  return promise.finally(() => { entry.end = clock++; });
};
const statement = (inner, sql, db, params = []) => ({
  inner, sql, params,
  bind: (...p) => statement(inner.bind(...p), sql, db, p),
  all: () => track({ op: "all", db, sql, params }, inner.all()),
  raw: (o) => track({ op: "raw", db, sql, params }, inner.raw(o)),
  first: (c) => track({ op: "first", db, sql, params }, inner.first(c)),
  run: () => track({ op: "run", db, sql, params }, inner.run()),
});
// Each binding is recorded by name (the directory DB, the shards DB_0, DB_1), and so is a
// request's session of a shard: the replay sends each statement to the same database.
const recordingD1 = (d1, db) => ({
  prepare: (sql) => statement(d1.prepare(sql), sql, db),
  batch: (list) => track(
    { op: "batch", db, statements: list.map((s) => ({ sql: s.sql, params: s.params })) },
    d1.batch(list.map((s) => s.inner)),
  ),
  withSession: (constraint) => recordingD1(d1.withSession(constraint), db),
  getBookmark: () => d1.getBookmark?.() ?? null,
  exec: (sql) => d1.exec(sql),
});
const recordingLimiter = (binding, limiter) => ({
  limit: (options) => track({ op: "limit", binding, key: options.key }, limiter.limit(options)),
});
export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    url.pathname = url.pathname.slice(${JSON.stringify(RECORD_PREFIX)}.length);
    log = [];
    const recording = {
      ...env,
      DB: recordingD1(env.DB, "DB"),
      DB_0: recordingD1(env.DB_0, "DB_0"),
      DB_1: recordingD1(env.DB_1, "DB_1"),
      READ_LIMITER: recordingLimiter("READ_LIMITER", env.READ_LIMITER),
      WRITE_LIMITER: recordingLimiter("WRITE_LIMITER", env.WRITE_LIMITER),
    };
    const res = await api.fetch(new Request(url, request), recording, ctx);
    await res.arrayBuffer();
    const plan = log;
    log = null;
    return Response.json({ status: res.status, plan });
  },
};
`;

/** The replayer: plans kept in memory by name, each run as the API ran it. */
const replayerSource = `
const plans = new Map();
const prepared = new Map();
const prepare = (name, db, sql) => {
  const key = name + "\0" + sql;
  let s = prepared.get(key);
  if (!s) prepared.set(key, (s = db.prepare(sql)));
  return s;
};
const send = (env, step) => {
  if (step.op === "limit") return env[step.binding].limit({ key: step.key });
  const name = step.db ?? "DB";
  const db = env[name];
  if (step.op === "batch") return db.batch(step.statements.map((s) => prepare(name, db, s.sql).bind(...s.params)));
  return prepare(name, db, step.sql).bind(...step.params)[step.op]();
};
export default {
  async fetch(request, env) {
    const [, , verb, name] = new URL(request.url).pathname.split("/");
    if (verb === "plan") {
      plans.set(name, await request.json());
      return new Response(null, { status: 204 });
    }
    const groups = plans.get(name);
    if (!groups) return new Response("no such plan", { status: 404 });
    const out = [];
    for (const group of groups) out.push(...(await Promise.all(group.map((step) => send(env, step)))));
    return Response.json(out);
  },
};
`;

type Step = { op: string; start: number; end: number; [field: string]: unknown };

/** Steps in groups that run one after another; the steps of a group overlapped in the API. */
export function overlapGroups(plan: Step[]): Step[][] {
  const groups: Step[][] = [];
  let groupEnd = -1;
  for (const step of [...plan].sort((a, b) => a.start - b.start)) {
    const current = groups.at(-1);
    if (current && step.start < groupEnd) current.push(step);
    else groups.push([step]);
    groupEnd = current && step.start < groupEnd ? Math.max(groupEnd, step.end) : step.end;
  }
  return groups;
}

/**
 * Miniflare worker options of the recorder and the replayer; `api` is the API worker's options
 * (its bindings), `outdir` the folder of its bundle.
 */
export function statementsFloorWorkers(api: Record<string, unknown>, apiWorker: string, outdir: string) {
  writeFileSync(path.join(outdir, "recorder.js"), recorderSource);
  const { compatibilityDate, compatibilityFlags, d1Databases, ratelimits, bindings } = api;
  const durableObjects = Object.fromEntries(
    Object.entries((api.durableObjects ?? {}) as Record<string, { className: string }>).map(([name, binding]) => [
      name,
      { className: binding.className, scriptName: apiWorker },
    ]),
  );
  const same = { compatibilityDate, compatibilityFlags, d1Databases, ratelimits, modules: true };
  return [
    {
      ...same,
      name: "statements-recorder",
      bindings,
      durableObjects,
      queueProducers: api.queueProducers,
      routes: [`*${RECORD_PREFIX}/*`],
      modules: [
        { type: "ESModule", path: path.join(outdir, "recorder.js") },
        { type: "ESModule", path: path.join(outdir, "index.js") },
      ],
      modulesRoot: outdir,
    },
    { ...same, name: "statements-floor", routes: [`*${FLOOR_PREFIX}/*`], script: replayerSource },
  ];
}

/**
 * Records what `GET route` sends (with `key`) and registers it with the replayer as `name`;
 * answers the path that replays it.
 */
export async function recordPlan(url: string, key: string, route: string, name: string): Promise<string> {
  const record = async () => {
    const res = await fetch(`${url}${RECORD_PREFIX}/api/v1${route}`, { headers: { authorization: `Bearer ${key}` } });
    return (await res.json()) as { status: number; plan: Step[] };
  };
  // The second request is the one kept: the first of a key also looks the key up on its own.
  await record();
  const { status, plan } = await record();
  if (status !== 200 || plan.length === 0) throw new Error(`recording ${route}: ${status}, ${plan.length} steps`);
  const registered = await fetch(`${url}${FLOOR_PREFIX}/plan/${name}`, {
    method: "POST",
    body: JSON.stringify(overlapGroups(plan)),
  });
  if (registered.status !== 204) throw new Error(`registering ${name}: ${registered.status}`);
  return `${FLOOR_PREFIX}/run/${name}`;
}
