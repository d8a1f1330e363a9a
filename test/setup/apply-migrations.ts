import { applyD1Migrations, type D1Migration } from "cloudflare:test";
import { env } from "cloudflare:workers";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}

// Idempotent: only migrations not yet applied to this file's isolated D1 run. The same
// migrations make the directory and every shard.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.DB_0, env.TEST_MIGRATIONS);
await applyD1Migrations(env.DB_1, env.TEST_MIGRATIONS);
