/**
 * Manage-link tokens against guessing: 10,000 random signatures for real booking ids verify under
 * no business's key, a token signed for one business's booking is worthless for another's, and
 * guessing over HTTP is throttled per address.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { base64url } from "../../src/lib/crypto";
import { linkKey, manageToken, parseManageToken, verifyManageToken } from "../../src/manage-links/tokens";
import { awayFromWindowEdge } from "../support/api";
import { bookWithLink, clinic, minutesFromNow, viaLink } from "../support/manage-links";

const randomSignature = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

describe("manage tokens", () => {
  it("10,000 random tokens for real bookings open none of them", async () => {
    const a = await clinic();
    const b = await clinic();
    const ids = [
      (await bookWithLink(a.apiKey, a.serviceId, minutesFromNow(600))).booking.id,
      (await bookWithLink(b.apiKey, b.serviceId, minutesFromNow(600))).booking.id,
    ];
    const keys = await Promise.all([a, b].map((x) => linkKey(env.MANAGE_LINK_SECRET, x.businessId, 1)));
    let opened = 0;
    for (let i = 0; i < 10_000; i++) {
      const parsed = parseManageToken(`${ids[i % 2]}.${randomSignature()}`);
      if (parsed && (await verifyManageToken(keys[i % 2] as CryptoKey, parsed.bookingId, parsed.signature))) opened++;
    }
    expect(opened).toBe(0);
    // The real token verifies under its own business's key only, and differs by business and version.
    const real = parseManageToken(await manageToken(keys[0] as CryptoKey, ids[0] as string));
    expect(real && (await verifyManageToken(keys[0] as CryptoKey, real.bookingId, real.signature))).toBe(true);
    expect(real && (await verifyManageToken(keys[1] as CryptoKey, real.bookingId, real.signature))).toBe(false);
    const rotated = await linkKey(env.MANAGE_LINK_SECRET, a.businessId, 2);
    expect(real && (await verifyManageToken(rotated, real.bookingId, real.signature))).toBe(false);
  });

  it("a token has one spelling: non-zero padding bits are not another name for the same signature", async () => {
    const c = await clinic();
    const { path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(600));
    const token = path.slice("/manage/".length);
    const last = token.at(-1) as string;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const sibling = alphabet[alphabet.indexOf(last) ^ 1] as string;
    expect(parseManageToken(`${token.slice(0, -1)}${sibling}`)).toBeUndefined();
  });

  it("guessing over HTTP finds nothing and is throttled per address; the real link opens from elsewhere", async () => {
    const c = await clinic();
    const { booking, path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(600));
    const statuses: number[] = [];
    // The limiter's minute is the wall clock's: the burst must not straddle one.
    await awayFromWindowEdge(60, 20_000);
    for (let i = 0; i < 70; i++) {
      const res = await viaLink("GET", `/manage/${booking.id}.${randomSignature()}`, undefined, "203.0.113.77");
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get("Retry-After")).toBe("60");
      await res.arrayBuffer();
    }
    expect(statuses.slice(0, 60).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(60).every((s) => s === 429)).toBe(true);
    expect((await viaLink("GET", path, undefined, "198.51.100.90")).status).toBe(200);
  });
});
