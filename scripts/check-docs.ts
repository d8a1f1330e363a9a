/**
 * `npm run lint:docs`: keeps the README, the pages under docs/ and the code's references to them
 * in step. Fails (exit 1) with one line per problem when
 *
 *  - a relative link in README.md or docs/*.md points at a missing file, or its `#anchor` at no
 *    heading of the target (anchors are GitHub's heading slugs);
 *  - a comment in src/, test/, scripts/ or .ci/ cites a page under docs/ that does not exist, or
 *    a heading it does not have: `(docs/<page>.md, "<Heading>")` or `docs/<page>.md#<anchor>`;
 *    a citation of a README heading is checked the same way;
 *  - a comment in code, a page under docs/ or the README names a path of the repository
 *    (`src/…`, `test/…`, `scripts/…`, `docs/…`, `migrations/…`, `public/…`) that does not exist
 *    (paths with `*` or `{…}` are patterns, and generated folders are skipped);
 *  - a page under docs/ is not linked from the README;
 *  - README.md is longer than 300 lines: it is the front door, what a newcomer reads first, and
 *    what goes deeper has a page under docs/.
 *
 * Runs in Node (workerd cannot read the repository), with no dependencies.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const README_MAX_LINES = 300;
/** Where code comments may cite the docs. */
const CODE_ROOTS = ["src", "test", "scripts", ".ci"];
const CODE_FILE = /\.(tsx?|js|mjs|cjs|sh)$|^[^.]+$/;

const problems: string[] = [];
const shown = (file: string) => path.relative(root, file);
const report = (file: string, line: number, message: string) => problems.push(`${shown(file)}:${line}: ${message}`);
const lineAt = (text: string, index: number) => text.slice(0, index).split("\n").length;

/**
 * GitHub's anchor for a heading's text (as github-slugger makes it): lower case, every character
 * that is not a letter, mark, digit, connector, hyphen or space dropped, spaces turned into
 * hyphens.
 */
export function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

/** A heading's text as GitHub renders it: code spans, links and emphasis reduced to their text. */
function headingText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`+/g, "")
    .replace(/\*+/g, "")
    .trim();
}

type Heading = { text: string; slug: string; line: number };
type Page = { file: string; text: string; headings: Heading[]; anchors: Set<string> };

/** The lines of a Markdown file outside fenced code blocks, with their numbers. */
function proseLines(text: string): { line: string; number: number }[] {
  const lines: { line: string; number: number }[] = [];
  let fence: string | undefined;
  text.split("\n").forEach((line, i) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
        fence = undefined;
      }
      return;
    }
    if (marker) {
      fence = marker;
      return;
    }
    lines.push({ line, number: i + 1 });
  });
  return lines;
}

const pages = new Map<string, Page>();

/** A Markdown file's headings and anchors, read once. */
function pageAt(file: string): Page {
  let page = pages.get(file);
  if (page) return page;
  const text = readFileSync(file, "utf8");
  const headings: Heading[] = [];
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { line, number } of proseLines(text)) {
    const atx = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) {
      const heading = headingText(atx[1] ?? "");
      const base = slugOf(heading);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      const slug = count === 0 ? base : `${base}-${count}`;
      headings.push({ text: heading, slug, line: number });
      anchors.add(slug);
    }
    for (const html of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(html[1] as string);
  }
  page = { file, text, headings, anchors };
  pages.set(file, page);
  return page;
}

/** Checks one relative link target (`path`, `path#anchor` or `#anchor`) written in `from`. */
function checkLink(from: string, line: number, target: string): void {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return; // https:, mailto: …
  const hash = target.indexOf("#");
  const filePart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const file = filePart === "" ? from : path.resolve(path.dirname(from), filePart);
  if (path.relative(root, file).startsWith("..")) {
    report(from, line, `link leaves the repository: ${target}`);
    return;
  }
  if (!existsSync(file)) {
    report(from, line, `link to a missing file: ${target}`);
    return;
  }
  if (anchor === undefined) return;
  if (!file.endsWith(".md") || statSync(file).isDirectory()) {
    report(from, line, `anchor on a file that is not Markdown: ${target}`);
    return;
  }
  if (!pageAt(file).anchors.has(anchor)) {
    report(from, line, `no heading with anchor #${anchor} in ${shown(file)}`);
  }
}

/** (a) Every relative link of a Markdown file. */
function checkLinks(file: string): number {
  let links = 0;
  for (const { line, number } of proseLines(pageAt(file).text)) {
    const prose = line.replace(/(`+)[^`]*?\1/g, (span) => " ".repeat(span.length));
    const targets = [
      ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] as string),
      ...[...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/g)].map((m) => m[1] as string),
    ];
    for (const target of targets) {
      links++;
      checkLink(file, number, target);
    }
  }
  return links;
}

/** A cited heading as written, with comment markers of wrapped lines taken out. */
const unwrap = (text: string) => text.replace(/[ \t]*\n[ \t]*(?:\*|\/\/|#)?[ \t]*/g, " ").trim();

/** Comment markers that may start the next line of a wrapped citation. */
const WRAP = String.raw`(?:[ \t]*\n[ \t]*(?:\*|\/\/|#)?)?[ \t]*`;
const DOC_CITATION = new RegExp(
  String.raw`(?<![\w/.-])docs/([\w.-]+\.md)(?:#([\p{L}\p{M}\p{N}_-]+)|,${WRAP}"([^"]{1,200})")?`,
  "gu",
);
const README_CITATION = new RegExp(
  String.raw`\bREADME(?:\.md)?(?:#([\p{L}\p{M}\p{N}_-]+)|(?:,|[ \t])${WRAP}"([^"]{1,200})")`,
  "gu",
);

/** Whether `page` has a heading whose text is `cited` (or whose anchor is `anchor`). */
function checkCitation(from: string, line: number, page: string, anchor?: string, cited?: string): void {
  const file = path.join(root, page);
  if (!existsSync(file)) {
    report(from, line, `cites a missing page: ${page}`);
    return;
  }
  const { headings, anchors } = pageAt(file);
  if (anchor !== undefined && !anchors.has(anchor)) {
    report(from, line, `cites ${page}#${anchor}, which has no such heading`);
  }
  if (cited !== undefined) {
    const heading = unwrap(cited);
    if (!headings.some((h) => h.text === heading)) {
      report(from, line, `cites ${page}, "${heading}", which has no such heading`);
    }
  }
}

function* codeFiles(dir: string): Generator<string> {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && !entry.name.startsWith(".") && entry.name !== "logs") {
        yield* codeFiles(full);
      }
    } else if (entry.isFile() && CODE_FILE.test(entry.name)) {
      yield full;
    }
  }
}

/** A repository path as prose names it: after a space, a bracket, a quote or a backtick. */
const PATH_CITATION = /(?:^|[\s(`"'])((?:src|test|scripts|docs|migrations|public)\/[A-Za-z0-9_./{}*-]*[A-Za-z0-9_/])/g;
/** Folders that only a run makes (git-ignored), so a path under them may be absent here. */
const GENERATED = /^(test\/(e2e|contract)\/\.generated|public\/docs-assets\/swagger-ui)/;
/** Lines of code files that are comments (`//`, `*`, `/*`, `#`): imports are the compiler's to check. */
const COMMENT_LINE = /^\s*(\/\/|\*|\/\*|#)/;

/** (d) Every path of the repository named in `lines` exists; returns how many were named. */
function checkPaths(file: string, lines: { line: string; number: number }[]): number {
  let named = 0;
  for (const { line, number } of lines) {
    for (const m of line.matchAll(PATH_CITATION)) {
      const cited = (m[1] as string).replace(/\/$/, "");
      if (/[*{]/.test(cited) || GENERATED.test(cited)) continue;
      named++;
      if (!existsSync(path.join(root, cited))) report(file, number, `names a path that does not exist: ${cited}`);
    }
  }
  return named;
}

/** The comment lines of a code file, with their numbers. */
const commentLines = (text: string) =>
  text
    .split("\n")
    .map((line, i) => ({ line, number: i + 1 }))
    .filter(({ line }) => COMMENT_LINE.test(line));

/** (b) Every citation of a doc page in the code. */
function checkCitations(): number {
  let citations = 0;
  for (const dir of CODE_ROOTS) {
    for (const file of codeFiles(path.join(root, dir))) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(DOC_CITATION)) {
        citations++;
        checkCitation(file, lineAt(text, m.index), `docs/${m[1]}`, m[2], m[3]);
      }
      for (const m of text.matchAll(README_CITATION)) {
        citations++;
        checkCitation(file, lineAt(text, m.index), "README.md", m[1], m[2]);
      }
      paths += checkPaths(file, commentLines(text));
    }
  }
  return citations;
}

const readme = path.join(root, "README.md");
const docsDir = path.join(root, "docs");
const docPages = existsSync(docsDir)
  ? readdirSync(docsDir)
      .filter((name) => name.endsWith(".md"))
      .sort()
      .map((name) => path.join(docsDir, name))
  : [];

let links = 0;
let paths = 0;
for (const file of [readme, ...docPages]) {
  links += checkLinks(file);
  paths += checkPaths(file, proseLines(pageAt(file).text));
}
const citations = checkCitations();

// Every page is reachable from the README.
const readmeText = pageAt(readme).text;
for (const page of docPages) {
  const name = path.relative(root, page).split(path.sep).join("/");
  if (!readmeText.includes(`](${name}`)) report(readme, 1, `does not link ${name}`);
}

// (c) The README stays short.
const readmeLines = readmeText.endsWith("\n") ? readmeText.split("\n").length - 1 : readmeText.split("\n").length;
if (readmeLines > README_MAX_LINES) {
  report(readme, README_MAX_LINES + 1, `README.md has ${readmeLines} lines; keep it to ${README_MAX_LINES}`);
}

if (problems.length > 0) {
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  process.stderr.write(`docs: ${problems.length} problem${problems.length === 1 ? "" : "s"}\n`);
  process.exit(1);
}
process.stdout.write(
  `docs: ${links} links in ${docPages.length + 1} pages, ${citations} citations in code, ${paths} paths named, README ${readmeLines} lines: ok\n`,
);
