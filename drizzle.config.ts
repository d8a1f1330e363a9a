import { defineConfig } from "drizzle-kit";

/** Generates the SQL that wrangler applies (`wrangler d1 migrations apply DB`). */
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema/index.ts",
  out: "./migrations",
});
