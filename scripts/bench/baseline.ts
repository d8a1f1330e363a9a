/**
 * An earlier commit's tree beside this one, for a bench that serves both bundles in one run (the
 * same machine, the same minutes): `git archive` of the commit into a temporary folder, with this
 * checkout's node_modules linked in (its toolchain builds the bundle). The repository itself is
 * not touched: no worktree, no checkout.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..", "..");

/** A checkout of `commit` to serve (`startBenchServer({ root })`), and how to remove it. */
export function checkoutAt(commit: string): { root: string; commit: string; dispose(): void } {
  const full = execFileSync("git", ["rev-parse", "--verify", `${commit}^{commit}`], { cwd: root, encoding: "utf8" })
    .trim()
    .slice(0, 12);
  const dir = mkdtempSync(path.join(tmpdir(), `booking-baseline-${full}-`));
  execFileSync("sh", ["-c", `git archive ${full} | tar -x -C "${dir}"`], { cwd: root });
  symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
  // The static files the bundle serves beside the API (copied in by this checkout's postinstall).
  const assets = path.join("public", "docs-assets");
  cpSync(path.join(root, assets), path.join(dir, assets), { recursive: true });
  return { root: dir, commit: full, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
