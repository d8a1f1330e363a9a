/**
 * The budgets of the booking pages and their public JSON (no API key): every request is charged
 * to its client's address (`PAGE_LIMITER`) and to the business (`PAGE_BUSINESS_LIMITER`), so one
 * client cannot flood a page and all clients together cannot take more than a business's share.
 */
import { ApiError } from "../lib/api-error";

/** Both limiters' period, as wrangler.toml sets them. */
const PERIOD_SECONDS = 60;

const tooMany = () =>
  new ApiError("rate_limited", "Too many requests to this booking page; try again in a minute.", {
    headers: { "Retry-After": String(PERIOD_SECONDS) },
  });

/** Charges one request from `address`; a 429 once that address has spent its budget. */
export async function chargeAddress(env: Env, address: string): Promise<void> {
  const { success } = await env.PAGE_LIMITER.limit({ key: `page-address:${address}` });
  if (!success) throw tooMany();
}

/** Charges one request to the business's page; a 429 once the business has spent its budget. */
export async function chargeBusiness(env: Env, businessId: string): Promise<void> {
  const { success } = await env.PAGE_BUSINESS_LIMITER.limit({ key: `page-business:${businessId}` });
  if (!success) throw tooMany();
}
