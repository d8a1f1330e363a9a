/** Instants at the end of the API's calendar: the document's own pattern, and every time in a body. */
import { expect } from "vitest";
import { api, json } from "./api";

/** The last instant the API can write (a four-digit year), as it answers it. */
export const LAST_INSTANT = "9999-12-31T23:59:59.999Z";

/** The pattern the OpenAPI document gives `property` of the component schema `schema`. */
export async function documentedPattern(schema: string, property: string): Promise<RegExp> {
  const document = await json(await api("GET", "/openapi.json"));
  const pattern = document.components.schemas[schema].properties[property].pattern;
  expect(pattern, `${schema}.${property} has a pattern`).toEqual(expect.any(String));
  return new RegExp(pattern);
}

/** Every value of a `from`, `to`, `startTime` or `endTime` key anywhere in `body`. */
export function instantsIn(body: unknown): string[] {
  if (Array.isArray(body)) return body.flatMap(instantsIn);
  if (typeof body !== "object" || body === null) return [];
  return Object.entries(body).flatMap(([key, value]) =>
    ["from", "to", "startTime", "endTime"].includes(key) && typeof value === "string" ? [value] : instantsIn(value),
  );
}

/** Asserts that every instant of `body` matches `pattern` and lies at or before LAST_INSTANT. */
export function expectWritableInstants(body: unknown, pattern: RegExp) {
  const instants = instantsIn(body);
  expect(instants.length).toBeGreaterThan(0);
  for (const instant of instants) {
    expect(instant).toMatch(pattern);
    expect(Date.parse(instant)).toBeLessThanOrEqual(Date.parse(LAST_INSTANT));
  }
}
