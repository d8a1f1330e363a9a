/**
 * Helpers for the production-edge tests (rate limits, conditional requests, hardening, CORS).
 * Not a test file: Vitest only picks up *.test.ts.
 */
import { env } from "cloudflare:workers";
import { newApiKey } from "../../src/business/new-business";
import { api, storeKey } from "./api";

export { awayFromWindowEdge } from "./api";

/** A budget binding such as READ_BUDGET = "10/60", as the rate-limit middleware reads it. */
export function budgetOf(name: "READ_BUDGET" | "WRITE_BUDGET"): { limit: number; period: number } {
  const [limit, period] = String(env[name] as string)
    .split("/")
    .map(Number);
  if (!limit || !period) throw new Error(`${name} is not <limit>/<period>: ${String(env[name])}`);
  return { limit, period };
}

/** A second API key for an existing business (as `npm run business:key` would issue). */
export async function addApiKey(businessId: string): Promise<string> {
  const key = await newApiKey(businessId, "test");
  await storeKey(key.record);
  return key.plaintext;
}

/** Sends `count` requests one after another and returns the responses (bodies read as text). */
export async function sequential(count: number, send: (i: number) => Promise<Response>) {
  const out: { status: number; headers: Headers; text: string }[] = [];
  for (let i = 0; i < count; i++) {
    const res = await send(i);
    out.push({ status: res.status, headers: res.headers, text: await res.text() });
  }
  return out;
}

/** A fresh, valid POST /customers body. */
export const customerBody = () => ({ name: "Grace Hopper", email: `${crypto.randomUUID()}@example.com` });

/** POST /customers with a fresh customer: a cheap write. */
export const postCustomer = (key: string) => api("POST", "/customers", { key, body: customerBody() });
