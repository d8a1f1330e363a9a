import { expect, it } from "vitest";
import { api, createAccount, createService, json } from "./helpers";

it("serves health and lists a created service", async () => {
  expect((await api("GET", "/health")).status).toBe(200);
  const { apiKey } = await createAccount();
  const svc = await createService(apiKey);
  const res = await api("GET", "/services", { key: apiKey });
  expect(res.status).toBe(200);
  const body = await json(res);
  expect(body.data[0].id).toBe(svc.id);
  console.log(res.headers.get("Link"), JSON.stringify(body.pagination));
  const doc = await json(await api("GET", "/openapi.json"));
  console.log(Object.keys(doc.paths));
  const nf = await api("DELETE", "/services", { key: apiKey });
  console.log(nf.status, nf.headers.get("Allow"), await nf.text());
  const bad = await api("POST", "/services", { key: apiKey, rawBody: "{bad", headers: { "Content-Type": "application/json" } });
  console.log(bad.status, await bad.text());
});
