/**
 * Local D1 written from this process: one Miniflare (one workerd) opens the database files that
 * `wrangler d1 execute --local` and `wrangler dev` open (the same `<state>/v3` folder, the same
 * database ids, so the same files), where a wrangler run per database would start Node,
 * wrangler's bundle and a workerd each time (docs/performance.md, "Start-up of npm run dev").
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./cli.ts";

/** The `database_id` of every `[[d1_databases]]` binding of wrangler.toml, by binding. */
export function d1DatabaseIds(): Record<string, string> {
  const toml = readFileSync(path.join(repoRoot, "wrangler.toml"), "utf8");
  const ids: Record<string, string> = {};
  for (const section of toml.split(/^\[\[d1_databases\]\]$/m).slice(1)) {
    const block = section.split(/^\[/m)[0] ?? "";
    const binding = /^binding\s*=\s*"([^"]+)"/m.exec(block)?.[1];
    const id = /^database_id\s*=\s*"([^"]+)"/m.exec(block)?.[1];
    if (binding && id) ids[binding] = id;
  }
  return ids;
}

/**
 * Runs each binding's statements as one batch (one transaction, as `wrangler d1 execute` does),
 * every database at the same time, on the local D1 of the state folder `state`.
 */
export async function batchLocalD1(state: string, statements: Record<string, string[]>): Promise<void> {
  // Loaded only when a state is made: most starts find theirs prepared.
  const { Miniflare, convertV4MiniflareOptions } = await import("miniflare");
  const ids = d1DatabaseIds();
  const d1Databases = Object.fromEntries(Object.keys(statements).map((binding) => [binding, ids[binding] ?? binding]));
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: "",
      resourcePersistencePath: path.join(state, "v3"),
      d1Databases,
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  try {
    await Promise.all(
      Object.entries(statements).map(async ([binding, list]) => {
        const db = await mf.getD1Database(binding);
        await db.batch(list.map((statement) => db.prepare(statement)));
      }),
    );
  } finally {
    await mf.dispose();
  }
}
