/// <reference types="vite/client" />
/**
 * The German catalog of the API's sentences is keyed by the English: if a schema's message is
 * reworded, its German page would quietly fall back to English. This keeps every key one that
 * src/ still says.
 */
import { describe, expect, it } from "vitest";
import { cataloguedSentences, sentenceIn } from "../../src/office/frame/problems";

const sources = import.meta.glob(["../../src/**/*.ts", "../../src/**/*.tsx", "!../../src/office/frame/problems.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

describe("the office's German catalog of the API's sentences", () => {
  it("names only sentences the API still says", () => {
    const text = Object.values(sources).join("\n");
    expect(Object.keys(sources).length).toBeGreaterThan(400);
    expect(cataloguedSentences.length).toBeGreaterThan(20);
    expect(cataloguedSentences.filter((sentence) => !text.includes(sentence))).toEqual([]);
  });

  it("says each of them in German, and English as it is", () => {
    for (const sentence of cataloguedSentences) {
      expect(sentenceIn("de", sentence)).not.toBe(sentence);
      expect(sentenceIn("en", sentence)).toBe(sentence);
    }
  });
});
