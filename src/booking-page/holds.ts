/**
 * A booking page's hold: the seat a visitor keeps while filling in their details, placed through
 * the same path as `POST /holds` (src/holds/create.ts), bounded per client address and service,
 * and answered with the token that alone books it.
 */

import { customerActor } from "../audit/booking-events";
import type { Database } from "../db/client";
import { createHold } from "../holds/create";
import { holdOf, releaseHold } from "../holds/records";
import { ApiError } from "../lib/api-error";
import { throwRefusal } from "../refusals";
import type { PageBusiness } from "./business";
import { holdToken, holdTokenMatches, placedBy } from "./hold-token";
import { onlineService } from "./services";

/** How long a page's hold keeps its seat. */
export const PAGE_HOLD_MINUTES = 10;
/** Live page holds one client address may have on one service at once. */
export const MAX_LIVE_HOLDS_PER_ADDRESS = 3;

/** What a page's hold is for. */
export type PageHoldRequest = { serviceId: string; providerId?: string; startTime: string; endTime: string };

/** A placed hold: its id, when it ends, the token that books it, and its times and person. */
export type PageHold = {
  id: string;
  expiresAt: string;
  holdToken: string;
  serviceId: string;
  providerId: string | null;
  startTime: string;
  endTime: string;
};

/**
 * Keeps the seat for PAGE_HOLD_MINUTES under every rule of a booking. The service must be one the
 * page offers (else 422 `service_not_found` at `serviceId`, as for the API) and `providerId` one
 * of its people. At most MAX_LIVE_HOLDS_PER_ADDRESS live holds per address and service, counted
 * and added in one D1 statement (409 `hold_limit_reached` beyond); a refusal holds nothing.
 */
export async function placePageHold(
  env: Env,
  db: Database,
  page: PageBusiness,
  address: string,
  request: PageHoldRequest,
): Promise<PageHold> {
  const service = await onlineService(db, page.id, request.serviceId);
  if (!service) {
    throw new ApiError("service_not_found", "This booking page offers no such service.", {
      errors: [{ path: "serviceId", message: "Not a service of this booking page." }],
    });
  }
  if (request.providerId !== undefined && !service.providers.some((p) => p.id === request.providerId)) {
    throw new ApiError("validation_failed", "The providerId does not perform this service.", {
      errors: [{ path: "providerId", message: "Not one of the service's providers." }],
    });
  }
  const by = await placedBy(env, page, service.id, address);
  const result = await createHold(
    env,
    db,
    { businessId: page.id, keyId: by },
    { ...request, ttlSeconds: PAGE_HOLD_MINUTES * 60 },
    {
      placedBy: by,
      max: MAX_LIVE_HOLDS_PER_ADDRESS,
      page: true,
      refusal: `You are holding ${MAX_LIVE_HOLDS_PER_ADDRESS} times of this service already; book one or wait until they run out.`,
    },
  );
  if (!result.ok) throwRefusal(result.refusal);
  const { hold } = result;
  return {
    id: hold.id,
    expiresAt: hold.expiresAt,
    holdToken: await holdToken(env, page, hold.id),
    serviceId: hold.serviceId,
    providerId: hold.providerId,
    startTime: hold.startTime,
    endTime: hold.endTime,
  };
}

/** The 404 of a hold the page did not place (or a token that is not its). */
const noSuchHold = () => new ApiError("not_found", "There is no such hold on this booking page.");

/**
 * The page's hold with this id as its calendar knows it now, once `token` proves it is the
 * page's (else a 404 that says nothing more); it may have ended since.
 */
export async function pageHoldOf(env: Env, db: Database, page: PageBusiness, holdId: string, token: string) {
  if (!(await holdTokenMatches(env, page, holdId, token))) throw noSuchHold();
  const found = await holdOf(env, db, page.id, holdId);
  if (!found) throw noSuchHold();
  return found.hold;
}

/** Whether a hold still keeps its seat now. */
export const isLive = (hold: { status: string; expiresAt: string }, now = Date.now()) =>
  hold.status === "HELD" && Date.parse(hold.expiresAt) > now;

/** Frees the seat of the page's hold at once (a hold that already ended stays as it is). */
export const releasePageHold = (env: Env, db: Database, page: PageBusiness, holdId: string) =>
  releaseHold(env, db, page.id, holdId, customerActor(holdId));
