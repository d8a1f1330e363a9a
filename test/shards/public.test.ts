/**
 * The public addresses of a business on shard 1 (no API key): its booking page by slug (the
 * directory knows every slug), a customer's manage link and a person's feed (by their tokens).
 * Slugs stay unique across shards.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, origin, problem } from "../support/api";
import { at, book, bookingBody } from "../support/bookings";
import { issueFeed, readFeed } from "../support/feeds";
import { newProvider } from "../support/fixtures";
import { enablePage, freshSlug, viaPage } from "../support/public";

async function pageOnShard(shard: number) {
  const account = await createAccount(`Page on ${shard}`, shard);
  const provider = await newProvider(account.apiKey, "Feed person");
  const service = await createService(account.apiKey, { bookableOnline: true, providerIds: [provider] });
  const slug = await enablePage(account.apiKey);
  return { ...account, provider, serviceId: service.id as string, slug };
}

describe("happy", () => {
  it("a page, a manage link and a feed of a business on shard 1 open, each from shard 1", async () => {
    const p = await pageOnShard(1);
    const services = await viaPage(p.slug, "GET", "/services");
    expect(services.status).toBe(200);
    expect((await json(services)).services.map((s: { id: string }) => s.id)).toEqual([p.serviceId]);
    expect((await api("GET", `${origin}/book/${p.slug}`, { key: null })).status).toBe(200);

    const booking = await book(p.apiKey, bookingBody(p.serviceId, at(6, "10:00")));
    expect(booking.manageUrl).toMatch(/^http:\/\/api\.test\//);
    const link = await api("GET", booking.manageUrl.replace("http://api.test/api/v1", ""), { key: null });
    expect(link.status).toBe(200);
    expect(await json(link)).toMatchObject({ id: booking.id, status: "CONFIRMED", manageUrl: booking.manageUrl });

    const feed = await issueFeed(p.apiKey, p.provider);
    const text = await (await readFeed(feed.path)).text();
    expect(text).toContain(booking.id);
    const row = await env.DB_1.prepare("SELECT count(*) AS n FROM calendar_feeds WHERE business_id = ?")
      .bind(p.businessId)
      .first();
    expect(row).toEqual({ n: 1 });
  });
});

describe("errors", () => {
  it("a slug a business on the other shard has is a 409, and the first business keeps its page", async () => {
    const [a, b] = await Promise.all([pageOnShard(0), pageOnShard(1)]);
    const slug = freshSlug();
    expect((await api("PATCH", "/business", { key: a.apiKey, body: { slug } })).status).toBe(200);
    await problem(await api("PATCH", "/business", { key: b.apiKey, body: { slug } }), 409, "slug_taken");
    const services = await json(await viaPage(slug, "GET", "/services"));
    expect(services.services.map((s: { id: string }) => s.id)).toEqual([a.serviceId]);
    // B keeps its own page at its own slug.
    expect((await viaPage(b.slug, "GET", "/services")).status).toBe(200);
  });

  it("a change refused by If-Match leaves the slug where it was, in the directory too", async () => {
    const p = await pageOnShard(1);
    const slug = freshSlug();
    const res = await api("PATCH", "/business", { key: p.apiKey, body: { slug }, headers: { "If-Match": '"999"' } });
    expect(res.status).toBe(412);
    expect((await viaPage(slug, "GET", "/services")).status).toBe(404);
    expect((await viaPage(p.slug, "GET", "/services")).status).toBe(200);
    const directory = await env.DB.prepare("SELECT slug FROM businesses WHERE id = ?").bind(p.businessId).first();
    expect(directory).toEqual({ slug: p.slug });
  });
});
