/** The business resource against the dev server: read, conditional read, change with If-Match. */
import { describe, expect, it } from "vitest";
import { api, expectProblem, raw } from "./support";

describe("GET and PATCH /business", () => {
  it("reads the demo business, then changes it under If-Match and reads the change back", async () => {
    const read = await api.GET("/business");
    expect(read.response.status).toBe(200);
    expect(read.data?.name).toBe("Demo Salon");
    const etag = read.response.headers.get("etag") as string;
    expect((await api.GET("/business", { headers: { "If-None-Match": etag } })).response.status).toBe(304);

    const locale = read.data?.locale === "de" ? "en" : "de";
    const changed = await api.PATCH("/business", { body: { locale }, headers: { "If-Match": etag } });
    expect(changed.response.status).toBe(200);
    expect(changed.data?.locale).toBe(locale);
    expect(changed.data?.version).toBe((read.data?.version ?? 0) + 1);

    const stale = await raw("PATCH", "/business", {
      headers: { "Content-Type": "application/json", "If-Match": etag },
      body: JSON.stringify({ locale: "en" }),
    });
    expectProblem(stale, await stale.json(), 412, "precondition_failed", "/api/v1/business");
    await api.PATCH("/business", { body: { locale: read.data?.locale ?? "en" } });
  });

  it("refuses an unknown locale with a 422 naming it", async () => {
    const refused = await raw("PATCH", "/business", {
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ locale: "fr" }),
    });
    const body = await refused.json();
    expectProblem(refused, body, 422, "validation_failed", "/api/v1/business");
    expect(body.errors.map((e: { path: string }) => e.path)).toEqual(["locale"]);
  });
});
