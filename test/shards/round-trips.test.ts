/**
 * What shards cost a request in D1 round trips (the issue's bound: no more than with one
 * database). Every call to the directory and to each shard is counted: a statement run alone, or
 * a batch, is one round trip.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { newApiKey } from "../../src/business/new-business";
import { api, json, origin, storeKey } from "../support/api";
import { issueFeed } from "../support/feeds";
import { businessOn } from "../support/shards";

type Counts = Record<"DB" | "DB_0" | "DB_1", number>;

const real = Symbol("real statement");

/** A statement that counts the call that runs it; a batch takes the real one back. */
function countingStatement(statement: D1PreparedStatement, count: () => void): D1PreparedStatement {
  return new Proxy(statement, {
    get(target, name) {
      if (name === real) return target;
      if (name === "bind") return (...values: unknown[]) => countingStatement(target.bind(...values), count);
      const value = Reflect.get(target, name, target);
      if (typeof value !== "function") return value;
      if (["first", "all", "run", "raw"].includes(String(name))) {
        return (...args: unknown[]) => {
          count();
          return value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
}

function countingDb(binding: D1Database, count: () => void): D1Database {
  return new Proxy(binding, {
    get(target, name) {
      // A request's reads go through a session of the binding (src/shards/session.ts): counted alike.
      if (name === "withSession") {
        return (constraint: string) =>
          countingDb(target.withSession(constraint) as unknown as D1Database, count) as unknown as D1DatabaseSession;
      }
      if (name === "prepare") return (sql: string) => countingStatement(target.prepare(sql), count);
      if (name === "batch") {
        return (statements: D1PreparedStatement[]) => {
          count();
          return target.batch(statements.map((s) => (s as unknown as Record<symbol, D1PreparedStatement>)[real] ?? s));
        };
      }
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The Worker's env with every D1 binding counting its round trips into `counts`. */
function countingEnv(counts: Counts): Env {
  const wrap = (name: keyof Counts) =>
    countingDb(env[name], () => {
      counts[name] += 1;
    });
  return { ...env, DB: wrap("DB"), DB_0: wrap("DB_0"), DB_1: wrap("DB_1") } as Env;
}

const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;

describe("round trips", () => {
  it("a key's shard is read from the directory once; then a list is one round trip, the key check folded in", async () => {
    const t = await businessOn(1, "Counted");
    const counts: Counts = { DB: 0, DB_0: 0, DB_1: 0 };
    const counted = countingEnv(counts);
    const send = async (method: string, path: string, body?: unknown) => {
      const before = { ...counts };
      const res = await app.fetch(
        new Request(`${origin}/api/v1${path}`, {
          method,
          headers: { Authorization: `Bearer ${t.apiKey}`, "Content-Type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        counted,
        ctx,
      );
      expect(res.status).toBeLessThan(300);
      return { DB: counts.DB - before.DB, DB_0: counts.DB_0 - before.DB_0, DB_1: counts.DB_1 - before.DB_1 };
    };
    // The key was used already (businessOn) in this isolate: its shard and caller are remembered.
    expect(await send("GET", "/bookings")).toEqual({ DB: 0, DB_0: 0, DB_1: 1 });
    expect(await send("GET", "/customers")).toEqual({ DB: 0, DB_0: 0, DB_1: 1 });
    expect(await send("GET", `/bookings/${t.bookingId}`)).toEqual({ DB: 0, DB_0: 0, DB_1: 2 });
    // A write looks its key up first, on the shard: no directory read.
    const write = await send("POST", "/customers", { name: "Grace", email: "grace@example.com" });
    expect(write.DB).toBe(0);
    expect(write.DB_0).toBe(0);
  });

  it("a feed poll and a manage-link read ask no other shard than their business's, once it was found", async () => {
    const t = await businessOn(1, "Counted public");
    const feed = await issueFeed(t.apiKey, t.providerId);
    const booking = await json(await api("GET", `/bookings/${t.bookingId}`, { key: t.apiKey }));
    const counts: Counts = { DB: 0, DB_0: 0, DB_1: 0 };
    const counted = countingEnv(counts);
    const read = async (path: string) => {
      const before = { ...counts };
      const res = await app.fetch(
        new Request(`${origin}/api/v1${path}`, { headers: { "CF-Connecting-IP": "198.51.100.9" } }),
        counted,
        ctx,
      );
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      return { DB: counts.DB - before.DB, DB_0: counts.DB_0 - before.DB_0, DB_1: counts.DB_1 - before.DB_1 };
    };
    const manage = (booking.manageUrl as string).slice(`${origin}/api/v1`.length);
    // The first of each may look on every shard; every later one goes to shard 1 only.
    await read(feed.path);
    await read(manage);
    for (let i = 0; i < 3; i++) {
      expect((await read(feed.path)).DB_0).toBe(0);
      expect((await read(manage)).DB_0).toBe(0);
    }
  });

  it("a key this isolate never saw costs one directory read, once", async () => {
    const t = await businessOn(0, "Counted fresh");
    // A second key of the business, never used: its shard is not remembered yet.
    const fresh = await newApiKey(t.businessId, "test");
    await storeKey(fresh.record, 0);
    const counts: Counts = { DB: 0, DB_0: 0, DB_1: 0 };
    const counted = countingEnv(counts);
    for (let i = 0; i < 5; i++) {
      const res = await app.fetch(
        new Request(`${origin}/api/v1/services`, { headers: { Authorization: `Bearer ${fresh.plaintext}` } }),
        counted,
        ctx,
      );
      expect(res.status).toBe(200);
    }
    // As with one database, the first request looks its key up (1) and lists (1), and each later
    // one lists with its key check folded in (1); the directory is read once, for the shard.
    expect(counts).toEqual({ DB: 1, DB_0: 2 + 4, DB_1: 0 });
    expect((await api("GET", "/services", { key: fresh.plaintext })).status).toBe(200);
  });
});
