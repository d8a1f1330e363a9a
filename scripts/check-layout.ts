/**
 * `npm run lint` (after Biome): keeps the code's layout as docs/operations.md ("Layout") draws it.
 * A folder is a room for one job and a file holds one concept, so the checks follow what the code
 * means rather than how much of it there is. Fails (exit 1) with one line per problem when
 *
 *  - a file under src/ is longer than 400 lines (more than one concept reads at a sitting: split
 *    it where its meaning splits);
 *  - a file under src/ is a fragment: under 20 lines that only hand on other modules' names or
 *    declare one type (it belongs beside what it serves); a folder's index.ts, its face, is not one;
 *  - a name is exported by two modules of src/ (one name, one thing: a module that hands a name
 *    on with `export … from` does not define it);
 *  - a module of the service calendar's steps/ or tables/ awaits: they run inside their caller's
 *    synchronous transaction (what awaits is a flow's or the object's);
 *  - a route (src/routes/) or a page (src/pages/) imports the calendar other than through its two
 *    faces (src/calendar, its objects' gateways, and src/calendar/rules, its pure rules), D1's
 *    tables or Drizzle; a route imports another resource's route folder, a page any route;
 *  - a route file registers an operation under another name than `register<OperationId>` (or
 *    `document…` for a path it only documents);
 *  - a module below the routes (domain modules, the calendar, lib) imports a route;
 *  - a folder of src/ is missing from the "Layout" tree of docs/operations.md, or the tree names a
 *    folder or file of src/ that does not exist.
 *
 * It notes (without failing) where a room's shape is in doubt: a folder that holds one file (a
 * room with one thing in it is a file), and a module that reaches into another room's inner room
 * (src/office/ importing src/pages/i18n/format.ts rather than what src/pages or
 * src/pages/i18n/index.ts offers): a room's inner rooms are its own business.
 *
 * Runs in Node with no dependencies; imports and exports are read as text.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const src = path.join(root, "src");
/** About what one concept takes; past it a file holds more than one. */
const MAX_LINES = 400;
/** Below this many lines, a file that only re-exports or declares one type is a fragment. */
const FRAGMENT_LINES = 20;
/** Where the Layout tree's descriptions start: a line indented this far continues the one above. */
const DESCRIPTION_COLUMN = 24;
/** The calendar's faces: the only modules of src/calendar that routes may import. */
const CALENDAR_FACES = new Set([
  "src/calendar",
  "src/calendar/index",
  "src/calendar/rules",
  "src/calendar/rules/index",
]);

/** Folders whose modules run inside a synchronous SQLite transaction and so never await. */
const SYNCHRONOUS = ["src/calendar/service/steps", "src/calendar/service/tables", "src/calendar/limits"];

/** Every folder under `dir` (itself included), repository-relative. */
function foldersUnder(dir: string): string[] {
  const below = readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? foldersUnder(full) : [];
  });
  return [path.relative(root, dir), ...below];
}

const filesIn = (folder: string) =>
  readdirSync(path.join(root, folder)).filter((name) => statSync(path.join(root, folder, name)).isFile());

/** The repository paths (or package names) a file imports. */
function importsOf(file: string, text: string): string[] {
  return [...text.matchAll(/\bfrom\s+"([^"]+)"/g)].map(([, spec]) =>
    (spec as string).startsWith(".")
      ? path.relative(root, path.resolve(path.dirname(file), spec as string)).replace(/\.tsx?$/, "")
      : (spec as string),
  );
}

/** The names a module defines and exports (declarations, `export { local as name }`, `export * as name from`). */
function exportedNames(text: string): Set<string> {
  const names = new Set<string>();
  const declared =
    /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|const|let|var|class|type|interface|enum|namespace)\s+([A-Za-z_$][\w$]*)/gm;
  for (const [, name] of text.matchAll(declared)) names.add(name as string);
  // `export { a, b as c };` without `from` exports local names; with `from`, or for a name the
  // module imported, it only hands them on.
  const imported = new Set(
    [...text.matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}\s+from/gm)].flatMap(([, list]) =>
      (list as string).split(",").map(
        (item) =>
          item
            .trim()
            .replace(/^type\s+/, "")
            .split(/\s+as\s+/)
            .pop() ?? "",
      ),
    ),
  );
  for (const [, list] of text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}\s*;/gm)) {
    for (const item of (list as string).split(",")) {
      const [local, name] = item
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/);
      if (local && !imported.has(local)) names.add(name ?? local);
    }
  }
  for (const [, name] of text.matchAll(/^export\s+\*\s+as\s+([A-Za-z_$][\w$]*)\s+from/gm)) names.add(name as string);
  return names;
}

/**
 * Whether a module is a fragment: short, and all it does is hand on other modules' names
 * (`export … from`) or declare a single type. A folder's face (index.ts), a declaration file
 * (`.d.ts`) and a module that makes a namespace (`export * as z from`, a new name) are not.
 */
function isFragment(name: string, text: string, lines: number): boolean {
  if (lines >= FRAGMENT_LINES || /^index\.tsx?$/.test(name) || name.endsWith(".d.ts")) return false;
  const code = text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "")
    .replace(/^import\s[^;]*;/gm, "")
    .trim();
  const withoutReexports = code.replace(/^export\s+(?:type\s+)?(?:\*|\{[^}]*\})\s+from\s+"[^"]+";/gm, "").trim();
  if (code !== "" && withoutReexports === "") return true;
  const exports = code.match(/^export\s/gm) ?? [];
  const typeExports = code.match(/^export\s+(?:type|interface)\s+\w+/gm) ?? [];
  const localDeclarations = code.match(/^(?:const|let|var|function|class|async|type|interface|enum)\s/gm) ?? [];
  return exports.length === 1 && typeExports.length === 1 && localDeclarations.length === 0;
}

/**
 * Where `target` (a module of src/) lies in an inner room of another room than `file`'s: below
 * the folder the two share, it goes through two folders or more (`b/c/y`) to a module that is not
 * the inner room's face (index). A face may hand on what its own room holds.
 */
function reachesInnerRoom(file: string, target: string): boolean {
  if (/\/index\.tsx?$/.test(file) || !target.startsWith("src/")) return false;
  const resolved = statSync(path.join(root, target), { throwIfNoEntry: false })?.isDirectory()
    ? `${target}/index`
    : target;
  const from = path.dirname(file).split("/");
  const to = resolved.split("/");
  let shared = 0;
  while (shared < from.length && shared < to.length - 1 && from[shared] === to[shared]) shared++;
  const below = to.slice(shared);
  return below.length >= 3 && below.at(-1) !== "index";
}

const problems: string[] = [];
const notes: string[] = [];
const folders = foldersUnder(src);
const definedIn = new Map<string, string[]>();

for (const folder of folders) {
  if (filesIn(folder).length === 1) {
    notes.push(`${folder}/: one file; a room with one thing in it is a file (move it beside what it serves)`);
  }
  for (const name of filesIn(folder).filter((n) => /\.tsx?$/.test(n))) {
    const file = path.join(root, folder, name);
    const shown = path.relative(root, file);
    const text = readFileSync(file, "utf8");
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (lines > MAX_LINES) {
      problems.push(
        `${shown}: ${lines} lines (at most ${MAX_LINES}); it holds more than one concept: split by meaning`,
      );
    }
    if (isFragment(name, text, lines)) {
      problems.push(`${shown}: a fragment (only re-exports or one type); keep it beside what it serves`);
    }
    if (SYNCHRONOUS.includes(folder) && /\b(await|async)\b/.test(text)) {
      problems.push(`${shown}: awaits; ${folder}/ runs inside its caller's transaction (a flow awaits)`);
    }
    for (const exported of exportedNames(text)) definedIn.set(exported, [...(definedIn.get(exported) ?? []), shown]);
    const inRoutes = shown.startsWith("src/routes/");
    for (const [, name] of text.matchAll(/^export const (\w+) = \((?:app|api): OpenAPIHono/gm)) {
      if (inRoutes && !/^(register|document)[A-Z]/.test(name as string)) {
        problems.push(`${shown}: exports ${name}; a route registers as register<OperationId>`);
      }
    }
    // The HTML pages stand where the routes do: above the domain modules, below nothing.
    const inPages = shown.startsWith("src/pages/");
    const resource = inRoutes ? shown.split("/")[2] : undefined;
    for (const target of importsOf(file, text)) {
      if (reachesInnerRoom(shown, target)) {
        notes.push(`${shown}: imports ${target}, inside another room's inner room; import what its room offers`);
      }
      if (inRoutes || inPages) {
        if (target.startsWith("src/calendar/") && !CALENDAR_FACES.has(target))
          problems.push(`${shown}: imports ${target}; use src/calendar (its gateways) or src/calendar/rules`);
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
}

for (const [name, files] of definedIn) {
  if (files.length > 1)
    problems.push(`${name}: exported by ${files.length} modules (${files.join(", ")}); name each thing once`);
}

/**
 * The src/ tree that docs/operations.md's "Layout" draws: its fenced block, one entry a line —
 * indented two spaces a level, names first (`bookings/ services/` may share a line), then the
 * description after two spaces or more. Lines indented as far as the descriptions continue them.
 */
function layoutTree(): { folders: Set<string>; files: Set<string> } {
  const doc = readFileSync(path.join(root, "docs", "operations.md"), "utf8");
  const block = /^## Layout\n[\s\S]*?^```\n([\s\S]*?)^```/m.exec(doc)?.[1] ?? "";
  const lines = block.split("\n").filter((line) => line.trim() !== "");
  const parents: string[] = [];
  const tree = { folders: new Set<string>(), files: new Set<string>() };
  for (const line of lines) {
    const indent = line.length - line.trimStart().length;
    if (indent >= DESCRIPTION_COLUMN) continue;
    const depth = indent / 2;
    const names =
      line
        .trim()
        .split(/\s{2,}/)[0]
        ?.split(" ") ?? [];
    parents.length = depth;
    const parent = parents.join("");
    for (const name of names) {
      const entry = parent + name;
      if (!entry.startsWith("src/")) continue;
      if (name.endsWith("/")) tree.folders.add(entry.replace(/\/$/, ""));
      else tree.files.add(entry);
    }
    // A line that names several folders is one level: its children (if any) are the last one's.
    parents[depth] = names.at(-1)?.endsWith("/") ? (names.at(-1) as string) : "";
  }
  return tree;
}

const layout = layoutTree();
for (const folder of folders) {
  if (!layout.folders.has(folder)) problems.push(`${folder}/: missing from docs/operations.md, "Layout"`);
}
const existing = new Set(folders);
for (const folder of layout.folders) {
  if (!existing.has(folder)) problems.push(`docs/operations.md, "Layout": ${folder}/ does not exist`);
}
for (const file of layout.files) {
  if (!statSync(path.join(root, file), { throwIfNoEntry: false })?.isFile()) {
    problems.push(`docs/operations.md, "Layout": ${file} does not exist`);
  }
}

for (const note of notes) console.warn(`note: ${note}`);
if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  console.error(`layout: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log("layout: ok");
