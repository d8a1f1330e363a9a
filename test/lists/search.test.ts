/**
 * Customer search through the trigram index answers exactly what the substring test does: over
 * random names and e-mails (accents, quotes, LIKE wildcards, FTS5 syntax), for terms of every
 * length — those under 3 characters, which the index cannot look up, fall back to the scan.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { searchKindOf } from "../../src/customers/records";
import { customers } from "../../src/db/schema";
import { newId } from "../../src/lib/ids";
import { api, createAccount, db, json } from "../support/api";

const alphabet = [..."abcdeéßøİ _-%\"'*.:()^+AB1", "\u0000"];
const text = (min: number, max: number) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((chars) => chars.join(""));

/** Stores random customers; returns them with the lower-cased fields search compares. */
async function seedRandom(businessId: string, seed: number) {
  const people = fc.sample(fc.record({ name: text(3, 14), local: text(1, 8) }), { numRuns: 60, seed });
  const t0 = Date.now() - 600_000;
  const rows = people.map(({ name, local }, i) => {
    const email = `${local.replaceAll(/[^a-z0-9]/gi, "x")}${i}@example.com`;
    return {
      id: newId("customer", t0 + i),
      businessId,
      name: name.trim() || "x",
      email,
      emailNormalized: email.toLowerCase(),
      nameNormalized: (name.trim() || "x").toLowerCase(),
      phone: null,
      createdAt: new Date(t0 + i).toISOString(),
      updatedAt: new Date(t0 + i).toISOString(),
    };
  });
  for (let i = 0; i < rows.length; i += 10)
    await db()
      .insert(customers)
      .values(rows.slice(i, i + 10));
  return rows;
}

async function searchIds(key: string, term: string): Promise<string[]> {
  const res = await api("GET", `/customers?limit=100&search=${encodeURIComponent(term)}`, { key });
  expect(res.status).toBe(200);
  const body = await json(res);
  expect(body.pagination.total).toBe(body.data.length);
  return body.data.map((c: { id: string }) => c.id).sort();
}

describe("customer search", () => {
  it("the index finds exactly the customers whose name or e-mail contains the term, at every term length", async () => {
    const { businessId, apiKey } = await createAccount();
    const rows = await seedRandom(businessId, 2026);
    const expected = (term: string) => {
      const t = term.toLowerCase();
      return rows
        .filter((r) => r.nameNormalized.includes(t) || r.emailNormalized.includes(t))
        .map((r) => r.id)
        .sort();
    };
    // Terms taken out of the stored values (so most find someone) and random ones.
    const pieces = rows.flatMap((r) => [r.name, r.email]);
    const fromValues = fc
      .tuple(fc.constantFrom(...pieces), fc.nat(), fc.integer({ min: 1, max: 6 }))
      .map(([value, start, length]) =>
        [...value].slice(start % value.length, (start % value.length) + length).join(""),
      );
    const term = fc.oneof(fromValues, text(1, 5)).filter((t) => t.trim().length > 0 && t.trim() === t);
    let indexed = 0;
    await fc.assert(
      fc.asyncProperty(term, async (t) => {
        if (searchKindOf(t) === "index") indexed++;
        expect(await searchIds(apiKey, t), JSON.stringify(t)).toEqual(expected(t));
      }),
      { numRuns: 60, seed: 25 },
    );
    expect(indexed).toBeGreaterThan(10);
  });

  it("an edit or an erasure updates the index in the same write", async () => {
    const { apiKey } = await createAccount();
    const created = await json(
      await api("POST", "/customers", { key: apiKey, body: { name: "Hedy Lamarr", email: "hedy@example.com" } }),
    );
    expect(await searchIds(apiKey, "lamarr")).toEqual([created.id]);
    await api("PATCH", `/customers/${created.id}`, { key: apiKey, body: { name: "Hedy Kiesler" } });
    expect(await searchIds(apiKey, "lamarr")).toEqual([]);
    expect(await searchIds(apiKey, "kiesler")).toEqual([created.id]);
    await api("DELETE", `/customers/${created.id}`, { key: apiKey });
    expect(await searchIds(apiKey, "kiesler")).toEqual([]);
    expect(await searchIds(apiKey, "hedy")).toEqual([]);
  });

  it("a NUL inside a stored name does not join the characters around it into a match", async () => {
    // FTS5's trigram tokenizer skips a NUL, so "b-\0ǅ" is indexed as if it held "b-ǆ".
    const { apiKey } = await createAccount();
    const joined = await json(
      await api("POST", "/customers", { key: apiKey, body: { name: "ib-\u0000ǅI", email: "nul@example.com" } }),
    );
    const real = await json(
      await api("POST", "/customers", { key: apiKey, body: { name: "ωib-Ǆ", email: "real@example.com" } }),
    );
    expect(await searchIds(apiKey, "b-Ǆ")).toEqual([real.id]);
    expect(await searchIds(apiKey, "b-\u0000ǅ")).toEqual([joined.id]);
  });
});
