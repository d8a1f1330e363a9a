/**
 * `npm run dev`'s own progress lines: on stderr (stdout carries the banner), each marked `[dev]`
 * so they stand out among wrangler's, and timed from this process's start, which is how the
 * start-up is measured (docs/performance.md, "Start-up of npm run dev").
 */
import { performance } from "node:perf_hooks";
import { info } from "../lib/cli.ts";

/** A progress line. */
export const log = (message: string) => info(`[dev] ${message}`);

/** Something that did not work; the server keeps running. */
export const warn = (message: string) => info(`[dev] warning: ${message}`);

/** Something that ends this process. */
export const fail = (message: string) => info(`[dev] error: ${message}`);

/** Seconds since this process started, e.g. "4.2 s". */
export const sinceStart = () => `${(performance.now() / 1000).toFixed(1)} s`;
