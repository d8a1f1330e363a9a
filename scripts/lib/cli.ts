/**
 * Small shared helpers for the command-line scripts: where the project lives, progress output
 * on stderr (stdout is reserved for a command's result) and errors that end the process.
 */
import path from "node:path";

/** The repository root (the directory holding package.json and wrangler.toml). */
export const repoRoot = path.resolve(import.meta.dirname, "..", "..");

/** A mistake in how a command was called: reported with a hint, exit code 2. */
export class UsageError extends Error {}

/** A failure while doing the work (wrangler failed, record not found, ...): exit code 1. */
export class CommandError extends Error {}

/** Progress and diagnostics: always stderr, so stdout stays machine-readable. */
export function info(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** The result of a command: stdout. */
export function out(message: string): void {
  process.stdout.write(`${message}\n`);
}

/** Runs a command's main function and turns errors into a message and an exit code. */
export async function runMain(main: () => Promise<void>, usageHint: string): Promise<void> {
  try {
    await main();
  } catch (error) {
    if (error instanceof UsageError) {
      info(`error: ${error.message}`);
      info(usageHint);
      process.exitCode = 2;
    } else if (error instanceof CommandError) {
      info(`error: ${error.message}`);
      process.exitCode = 1;
    } else {
      info(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exitCode = 1;
    }
  }
}

/** Node's parseArgs errors read like "Unknown option '--x'"; make them usage errors. */
export function asUsageError(error: unknown): Error {
  if (error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) {
    return new UsageError(error.message);
  }
  return error instanceof Error ? error : new Error(String(error));
}
