/**
 * The first real request of a start (GET /api/v1/services with the demo key): the moment the
 * API can be used, which the banner reports. A 401 means the demo key is no longer valid in this
 * state (revoked through the API): the state is then no longer counted as prepared, so the next
 * start restores the key.
 */
import { forgetPrepared } from "../lib/dev-state.ts";
import type { DemoApi } from "./api.ts";
import { log, sinceStart, warn } from "./log.ts";

/** Sends the first request and answers how long after the start it was answered, e.g. "4.2 s". */
export async function firstRequest(api: DemoApi, state: string): Promise<string> {
  const first = await api("GET", "/services?limit=1");
  const answeredAfter = sinceStart();
  log(`first request answered ${answeredAfter} after start (GET /api/v1/services: HTTP ${first.status}).`);
  if (first.status === 401) {
    forgetPrepared(state);
    warn("the demo key is not valid in this state (revoked?); the next `npm run dev` restores it.");
  }
  return answeredAfter;
}
