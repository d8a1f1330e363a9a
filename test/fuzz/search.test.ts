/**
 * Model-based check of GET /customers?search=: for customers with hostile names and e-mails
 * (%, _, \, quotes, unicode case pairs) and random terms, the answer is exactly the customers
 * whose lower-cased name or e-mail contains the lower-cased (trimmed) term, as an in-test
 * filter computes it. Creating the customers is checked against the model too (409 for a
 * repeated e-mail in any case, 422 for a blank name).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { api } from "../helpers";
import { check, expectSane, KeyRing } from "./support";

const RUNS = 100;
/** A new business once this many customers exist, so one page (limit=100) holds every match. */
const MAX_CUSTOMERS = 80;

type Customer = { id: string; name: string; email: string };

/** Letters with tricky case mappings, LIKE/escape metacharacters, quotes, emoji. */
const nameAlphabet = [
  ..."aAbBzZ09 -'",
  "%",
  "_",
  "\\",
  '"',
  "é",
  "É",
  "ß",
  "ẞ",
  "Σ",
  "σ",
  "ς",
  "İ",
  "ı",
  "i",
  "I",
  "\u212a", // KELVIN SIGN, lower-cases to "k"
  "k",
  "Ǆ",
  "ǅ",
  "ǆ",
  "Ω",
  "\u2126", // OHM SIGN
  "ω",
  "ﬀ",
  "😀",
  "\u0000",
  "\u00a0",
];

const nameArb = fc.string({ unit: fc.constantFrom(...nameAlphabet), minLength: 1, maxLength: 12 });

/** E-mails zod accepts, in mixed case, with `_`, `+`, `-` and `'` in the local part. */
const emailArb = fc
  .tuple(
    fc.string({ unit: fc.constantFrom(..."aAbBxX09_+-'"), minLength: 0, maxLength: 8 }),
    fc.constantFrom("example.com", "EXAMPLE.com", "Ex-Ample.ORG", "a-b.io"),
  )
  .map(([local, domain]) => `${local}x@${domain}`);

/** A search term: free text, metacharacters, or a slice of a stored name/e-mail in another case. */
type TermSpec =
  | { kind: "literal"; text: string }
  | { kind: "slice"; which: number; start: number; length: number; casing: "same" | "upper" | "lower" | "swap" };

const termArb: fc.Arbitrary<TermSpec> = fc.oneof(
  fc.string({ unit: fc.constantFrom(...nameAlphabet, "@", "."), minLength: 1, maxLength: 4 }).map((text) => ({
    kind: "literal" as const,
    text,
  })),
  fc
    .constantFrom("%", "_", "\\", "%%", "_%", "\\%", "' OR 1=1 --", "'", "@", ".", " a ", "  ", "x@", "\u0000")
    .map((text) => ({ kind: "literal" as const, text })),
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("slice" as const),
      which: fc.nat(),
      start: fc.nat(),
      length: fc.integer({ min: 1, max: 6 }),
      casing: fc.constantFrom("same" as const, "upper" as const, "lower" as const, "swap" as const),
    }),
  },
);

function swapCase(text: string): string {
  return [...text].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join("");
}

/** The term a spec stands for, given the customers stored so far. */
function termOf(spec: TermSpec, model: Customer[]): string {
  if (spec.kind === "literal") return spec.text;
  const sources = model.flatMap((c) => [c.name, c.email]);
  if (sources.length === 0) return "a";
  const source = [...(sources[spec.which % sources.length] as string)];
  const start = spec.start % source.length;
  const slice = source.slice(start, start + spec.length).join("");
  return { same: slice, upper: slice.toUpperCase(), lower: slice.toLowerCase(), swap: swapCase(slice) }[spec.casing];
}

/** The model of search: case-insensitive substring of name or e-mail, every character literal. */
function expectedMatches(model: Customer[], term: string): string[] {
  const needle = term.trim().toLowerCase();
  return model
    .filter((c) => c.name.toLowerCase().includes(needle) || c.email.toLowerCase().includes(needle))
    .map((c) => c.id)
    .sort();
}

describe("customer search, model-based", () => {
  it("GET /customers?search= returns exactly the customers the in-test filter finds", async () => {
    let ring = await KeyRing.create("Fuzz search");
    let model: Customer[] = [];

    await check(
      fc.tuple(
        fc.array(fc.record({ name: nameArb, email: emailArb }), { minLength: 1, maxLength: 3 }),
        fc.array(termArb, { minLength: 1, maxLength: 2 }),
      ),
      async ([newCustomers, terms]) => {
        if (model.length > MAX_CUSTOMERS) {
          ring = await KeyRing.create("Fuzz search");
          model = [];
        }
        for (const input of newCustomers) {
          const res = await api("POST", "/customers", { key: await ring.key(), body: input });
          const context = `POST /customers ${JSON.stringify(input)}`;
          const checked = await expectSane(res, context);
          const taken = model.some((c) => c.email.toLowerCase() === input.email.toLowerCase());
          if (input.name.trim() === "") {
            expect(checked.status, context).toBe(422);
          } else if (taken) {
            expect(checked.status, context).toBe(409);
          } else {
            expect(checked.status, context).toBe(201);
            const created = checked.body as Customer;
            expect(created.name, context).toBe(input.name.trim());
            expect(created.email, context).toBe(input.email);
            model.push({ id: created.id, name: created.name, email: created.email });
          }
        }

        for (const spec of terms) {
          const term = termOf(spec, model);
          const path = `/customers?limit=100&search=${encodeURIComponent(term)}`;
          const res = await api("GET", path, { key: await ring.key() });
          const context = `GET ${path} (term ${JSON.stringify(term)}) over ${JSON.stringify(model)}`;
          const checked = await expectSane(res, context);
          if (term.trim() === "") {
            expect(checked.status, context).toBe(422);
            continue;
          }
          expect(checked.status, context).toBe(200);
          const body = checked.body as { data: Customer[]; pagination: { total: number } };
          const expected = expectedMatches(model, term);
          expect(body.data.map((c) => c.id).sort(), context).toEqual(expected);
          expect(body.pagination.total, context).toBe(expected.length);
        }
      },
      RUNS,
    );
  });
});
