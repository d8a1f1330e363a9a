import { ApiError } from "./errors";

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
