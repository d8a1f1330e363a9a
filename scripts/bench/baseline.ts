/**
 * The sources of another revision, to build and serve beside this tree (`--baseline <rev>`): the
 * revision's tracked files from `git archive`, in a temp folder, with this tree's node_modules
 * linked in (the same dependencies, so only the code differs).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..", "..");

/** The folder holding `rev`'s sources, and how to remove it. */
export function sourcesOf(rev: string): { dir: string; dispose(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), "booking-baseline-"));
  const archive = execFileSync("git", ["archive", "--format=tar", rev], { cwd: root, maxBuffer: 1 << 30 });
  execFileSync("tar", ["-x", "-C", dir], { input: archive });
  symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
