/**
 * `npm run lint` (after Biome): keeps the code's layout as docs/operations.md ("Layout") draws it.
 * Fails (exit 1) with one line per problem when
 *
 *  - a file under src/ is longer than 250 lines (one sitting's reading);
 *  - a route (src/routes/) or a page (src/pages/) imports the calendar other than through its
 *    public module (src/calendar/index.ts), D1's tables or Drizzle; a route imports another
 *    resource's route folder, a page any route;
 *  - a module below the routes (domain modules, the calendar, lib) imports a route.
 *
 * Runs in Node with no dependencies; imports are read as text (`from "…"`).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const src = path.join(root, "src");
const MAX_LINES = 250;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : /\.tsx?$/.test(full) ? [full] : [];
  });
}

/** The repository paths (or package names) a file imports. */
function importsOf(file: string, text: string): string[] {
  return [...text.matchAll(/\bfrom\s+"([^"]+)"/g)].map(([, spec]) =>
    (spec as string).startsWith(".")
      ? path.relative(root, path.resolve(path.dirname(file), spec as string)).replace(/\.tsx?$/, "")
      : (spec as string),
  );
}

const problems: string[] = [];
for (const file of filesUnder(src)) {
  const shown = path.relative(root, file);
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (lines > MAX_LINES) problems.push(`${shown}: ${lines} lines (at most ${MAX_LINES})`);
  const inRoutes = shown.startsWith("src/routes/");
  // The HTML pages stand where the routes do: above the domain modules, below nothing.
  const inPages = shown.startsWith("src/pages/");
  const resource = inRoutes ? shown.split("/")[2] : undefined;
  for (const target of importsOf(file, text)) {
    if (inRoutes || inPages) {
      if (target.startsWith("src/calendar/"))
        problems.push(`${shown}: imports ${target}; use src/calendar (its index)`);
      if (target.startsWith("src/db") || target.startsWith("drizzle-orm")) {
        problems.push(`${shown}: imports ${target}; D1 is reached through a domain module`);
      }
      // A resource's folder is src/routes/<resource>/; files beside the folders are shared.
      const parts = target.split("/");
      if (inRoutes && target.startsWith("src/routes/") && parts.length > 3 && parts[2] !== resource) {
        problems.push(`${shown}: imports another resource's route ${target}`);
      }
      if (inPages && target.startsWith("src/routes/")) problems.push(`${shown}: imports the route ${target}`);
    } else if (target.startsWith("src/routes/") && shown !== "src/app.ts") {
      problems.push(`${shown}: imports the route ${target}; routes stand above the modules they call`);
    }
  }
}

if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  console.error(`layout: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log("layout: ok");
