import { ApiError } from "../lib/errors";

/** The `FEED_LIMITER` budget, as wrangler.toml sets it: requests per period, per address and per token. */
const FEED_PERIOD_SECONDS = 60;

/**
 * Charges one feed request to its client's address and to the token it names (`FEED_LIMITER`);
 * a 429 once either budget is spent. Calendar apps poll every few minutes, so the budget is far
 * above what one subscriber needs and far below what guessing tokens would take.
 */
export async function chargeFeedRequest(limiter: RateLimit, address: string, token: string) {
  const [byAddress, byToken] = await Promise.all([
    limiter.limit({ key: `feed-address:${address}` }),
    limiter.limit({ key: `feed-token:${token.slice(0, 64)}` }),
  ]);
  if (!byAddress.success || !byToken.success) {
    throw new ApiError("rate_limited", "Too many calendar feed requests; try again in a minute.", {
      headers: { "Retry-After": String(FEED_PERIOD_SECONDS) },
    });
  }
}
