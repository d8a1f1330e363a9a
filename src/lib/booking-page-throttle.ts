import { ApiError } from "./api-error";

/** The public limiters' period, as wrangler.toml sets it (`FEED_LIMITER`, `LINK_LIMITER`). */
const PERIOD_SECONDS = 60;

/**
 * Charges one request of a public route (no API key; the address is the secret) to its client's
 * address and to the token it names; a 429 once either budget is spent. The budgets are far above
 * what one honest user needs and far below what guessing tokens would take.
 */
export async function chargePublicRequest(
  limiter: RateLimit,
  scope: "feed" | "link",
  address: string,
  token: string,
): Promise<void> {
  const [byAddress, byToken] = await Promise.all([
    limiter.limit({ key: `${scope}-address:${address}` }),
    limiter.limit({ key: `${scope}-token:${token.slice(0, 128)}` }),
  ]);
  if (!byAddress.success || !byToken.success) {
    const what = scope === "feed" ? "calendar feed requests" : "requests to manage links";
    throw new ApiError("rate_limited", `Too many ${what}; try again in a minute.`, {
      headers: { "Retry-After": String(PERIOD_SECONDS) },
    });
  }
}

/** The client's address as Cloudflare reports it (one bucket for requests without one). */
export const clientAddress = (request: Request) => request.headers.get("CF-Connecting-IP") ?? "unknown";

/**
 * The network a client address stands for where a bound counts visitors: an IPv4 address itself,
 * an IPv6 address's /64 (one home line or phone gets a whole /64, so its addresses are one
 * visitor), written as its first four groups. An IPv4-mapped IPv6 address counts as its IPv4
 * address; anything else is answered as sent.
 */
export function addressNetwork(address: string): string {
  if (!address.includes(":")) return address;
  const text = address.toLowerCase().replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (mapped) return mapped[1] as string;
  const halves = text.split("::");
  if (halves.length > 2) return text;
  const groupsOf = (half: string) =>
    half === ""
      ? []
      : half.split(":").flatMap((group) => {
          // A trailing dotted quad is the address's last two groups.
          const quad = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(group);
          if (!quad) return [group];
          const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
          return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
        });
  const head = groupsOf(halves[0] as string);
  const tail = halves.length === 2 ? groupsOf(halves[1] as string) : [];
  const groups = halves.length === 2 ? [...head, ...Array(8 - head.length - tail.length).fill("0"), ...tail] : head;
  if (groups.length !== 8 || !groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return text;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}
