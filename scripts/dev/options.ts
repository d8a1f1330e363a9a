/**
 * What `npm run dev`'s arguments say about the server it starts. Every argument goes on to
 * `wrangler dev` as given; this script reads the few it must know itself: where the server
 * listens (to reach it and to print its address) and where its state lives (to prepare it).
 */
import { stateDir } from "../lib/dev-state.ts";
import type { D1Target } from "../lib/wrangler.ts";
import { fail } from "./log.ts";

/** The port `wrangler dev` listens on when none is given. */
const DEFAULT_PORT = 8787;

export type DevOptions = {
  /** Every argument given to `npm run dev`, handed on to wrangler. */
  args: string[];
  /** `--ip` and `--port` as given (undefined: this script adds its defaults for wrangler). */
  ip: string | undefined;
  portText: string | undefined;
  port: number;
  /** `--persist-to`: wrangler's state folder (undefined: `.wrangler/state`). */
  persistTo: string | undefined;
  /** Local D1 in that folder, for the wrangler commands that prepare it. */
  target: D1Target;
  /** The state folder itself (scripts/lib/dev-state.ts). */
  state: string;
  /** How this machine reaches the server, e.g. `http://127.0.0.1:8787`. */
  origin: string;
  /** `${origin}/api/v1`. */
  baseUrl: string;
};

/** The value of `--name V` or `--name=V` in a wrangler argument list (the last one wins). */
function optionValue(args: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") break;
    if (arg === name && i + 1 < args.length) value = args[++i];
    else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
  }
  return value;
}

/** Host to reach a server listening on `ip` from this machine. */
function reachableHost(ip: string): string {
  if (ip === "0.0.0.0" || ip === "*") return "127.0.0.1";
  if (ip === "::" || ip === "[::]") return "[::1]";
  if (ip.includes(":") && !ip.startsWith("[")) return `[${ip}]`;
  return ip;
}

/** Reads `npm run dev`'s arguments; a `--port` that is no port number ends the process (exit 2). */
export function readOptions(args: string[]): DevOptions {
  const ip = optionValue(args, "--ip");
  const portText = optionValue(args, "--port");
  const port = portText === undefined ? DEFAULT_PORT : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    fail(`--port must be a port number, not "${portText}".`);
    process.exit(2);
  }
  const persistTo = optionValue(args, "--persist-to");
  const origin = `http://${reachableHost(ip ?? "127.0.0.1")}:${port}`;
  return {
    args,
    ip,
    portText,
    port,
    persistTo,
    target: { remote: false, persistTo },
    state: stateDir(persistTo),
    origin,
    baseUrl: `${origin}/api/v1`,
  };
}

/** Whether only wrangler's own help was asked for (then nothing is prepared and no server starts). */
export function wantsHelp(args: readonly string[]): boolean {
  return args.includes("--help") || args.includes("-h");
}
