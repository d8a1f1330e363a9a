import { applyD1Migrations, type D1Migration } from "cloudflare:test";
import { env } from "cloudflare:workers";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}

// Idempotent: only migrations not yet applied to this file's isolated D1 run.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
