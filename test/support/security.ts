/**
 * The checks every operation's "security" block makes (not a test file): the 401 challenge,
 * a revoked key, and a 404 for another business's id that tells nothing an unknown id would not.
 */
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { newApiKey } from "../../src/business/new-business";
import { apiKeys } from "../../src/db/schema";
import { api, db, problem, storeKey } from "./api";

/** Asserts a 401 `unauthorized` with the Bearer challenge (`error="invalid_token"` once a key was sent). */
export async function expectUnauthorized(res: Response, keySent: boolean) {
  const body = await problem(res, 401, "unauthorized");
  expect(res.headers.get("WWW-Authenticate")).toBe(
    keySent ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"',
  );
  return body;
}

/**
 * A second key of the business that worked once (so this isolate remembers its caller, the path
 * a read from a known key takes) and was then revoked.
 */
export async function revokedKey(businessId: string): Promise<string> {
  const { record, plaintext } = await newApiKey(businessId, "test");
  await storeKey(record);
  const used = await api("GET", "/services", { key: plaintext });
  expect(used.status).toBe(200);
  await db().update(apiKeys).set({ revokedAt: new Date().toISOString() }).where(eq(apiKeys.id, record.id));
  return plaintext;
}

/** An id of the same kind as `id` (same prefix) that names nothing. */
export const unknownIdLike = (id: string) => `${id.slice(0, id.indexOf("_") + 1)}${"0".repeat(26)}`;

/** The parts of a 404 body that must not differ between "someone else's" and "no such" id. */
function shapeOf(body: Record<string, unknown>, id: string) {
  return {
    keys: Object.keys(body).sort(),
    type: body.type,
    title: body.title,
    status: body.status,
    code: body.code,
    detail: String(body.detail).replaceAll(id, "<id>"),
    instance: String(body.instance).replaceAll(id, "<id>"),
  };
}

/**
 * Asserts that `foreign` (a request naming another business's `foreignId`) got exactly the 404
 * that `unknown` (the same request naming `unknownId`) got, ids aside, and that it mentions none
 * of `hidden` (the owner's name, ids, data).
 */
export async function expectNotFoundLikeUnknown(
  foreign: Response,
  foreignId: string,
  unknown: Response,
  unknownId: string,
  hidden: string[] = [],
) {
  const text = await foreign.clone().text();
  const foreignBody = await problem(foreign, 404, "not_found");
  const unknownBody = await problem(unknown, 404, "not_found");
  expect(shapeOf(foreignBody, foreignId)).toEqual(shapeOf(unknownBody, unknownId));
  for (const secret of hidden) expect(text).not.toContain(secret);
  return foreignBody;
}
