/**
 * Which URLs may receive webhooks. In production: public HTTPS only. On a developer's machine,
 * and only when the Worker has `WEBHOOKS_ALLOW_LOCAL=true` (set by `npm run dev` and in
 * `.dev.vars`, never in wrangler.toml), also plain HTTP to the machine itself, so events can be
 * watched without a public tunnel.
 */
import { z } from "../lib/zod";

/** Host names of the local machine and of private networks (RFC 6761, RFC 6762, RFC 8375). */
const nonPublicSuffixes = [".localhost", ".local", ".internal", ".arpa"];

/** Hosts a local receiver may use: this machine, by name or loopback address. */
const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Why `url` cannot receive webhooks in production, or undefined when it can. */
export function publicReceiverProblem(url: URL): string | undefined {
  if (url.protocol !== "https:") return "Use an https:// URL.";
  if (url.username || url.password) return "Leave user name and password out of the URL; verify the signature instead.";
  // The URL parser drops a default :443, so any port left is another one.
  if (url.port) return "Use the default HTTPS port 443.";
  const host = url.hostname.toLowerCase();
  if (host === "localhost" || nonPublicSuffixes.some((suffix) => host.endsWith(suffix))) {
    return "Use a public host name, not one of the local machine or a private network.";
  }
  // The domain pattern wants dotted labels ending in letters: IPv4 and IPv6 literals (in any
  // spelling the URL parser normalises, such as 0x7f000001) and single-label names never match.
  if (!z.regexes.domain.test(host)) return "Use a public host name such as hooks.example.com, not an IP address.";
  return undefined;
}

/** An http(s) URL on this machine (localhost, 127.0.0.1, [::1]) without credentials. */
export function isLoopbackReceiver(url: URL): boolean {
  return (
    (url.protocol === "http:" || url.protocol === "https:") &&
    !url.username &&
    !url.password &&
    loopbackHosts.has(url.hostname.toLowerCase())
  );
}

/** True when this Worker accepts loopback receivers (local development only). */
export function localReceiversAllowed(env: { WEBHOOKS_ALLOW_LOCAL?: string }): boolean {
  return env.WEBHOOKS_ALLOW_LOCAL === "true";
}
