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

/**
 * Whether `host` (as the URL parser spells it) is an IP address of no public network: unspecified,
 * loopback, private (RFC 1918, RFC 6598, IPv6 unique local), link-local (169.254.0.0/16, where
 * clouds answer their metadata; fe80::/10), or multicast and reserved, IPv4-mapped ones included.
 */
function isNonPublicAddress(host: string): boolean {
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (v4) return nonPublicV4(v4.slice(1).map(Number) as [number, number, number, number]);
  if (!host.startsWith("[")) return false;
  const v6 = host.slice(1, -1).toLowerCase();
  if (v6 === "::" || v6 === "::1") return true;
  // The parser writes an IPv4-mapped address in hex: [::ffff:a00:1] for ::ffff:10.0.0.1.
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (mapped) {
    const [high, low] = [Number.parseInt(mapped[1] as string, 16), Number.parseInt(mapped[2] as string, 16)];
    return nonPublicV4([high >> 8, high & 255, low >> 8, low & 255]);
  }
  const first = (v6.split(":")[0] as string).padStart(4, "0");
  return /^(f[cd]|fe[89ab]|ff)/.test(first);
}

/** The IPv4 ranges no public receiver has (RFC 6890's special-purpose registry, in short). */
function nonPublicV4([a, b]: [number, number, number, number]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    a >= 224 ||
    (a === 100 && b >= 64 && b < 128) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b < 32) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19))
  );
}

/** Why `url` cannot receive webhooks in production, or undefined when it can. */
export function publicReceiverProblem(url: URL): string | undefined {
  // Said first: no scheme or port makes such an address acceptable, so "use https" would mislead.
  if (isNonPublicAddress(url.hostname)) {
    return `${url.hostname} is a private, loopback or link-local address, which is not allowed; use a public host name.`;
  }
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
