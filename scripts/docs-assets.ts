/**
 * Copies the Swagger UI bundle from node_modules into public/docs-assets/, where the Worker's
 * static assets serve it to /api/v1/docs (no third-party CDN at run time). Runs on postinstall.
 */
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const from = path.join(root, "node_modules", "swagger-ui-dist");
const to = path.join(root, "public", "docs-assets");
const files = ["swagger-ui-bundle.js", "swagger-ui-bundle.js.LICENSE.txt", "swagger-ui.css"];

if (!existsSync(from)) {
  // Production installs (--omit=dev) have no Swagger UI; the docs page then shows a plain link.
  process.stderr.write("docs-assets: swagger-ui-dist is not installed; skipping.\n");
} else {
  mkdirSync(to, { recursive: true });
  for (const file of files) copyFileSync(path.join(from, file), path.join(to, file));
}
