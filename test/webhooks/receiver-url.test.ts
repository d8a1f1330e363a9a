/**
 * Which URLs may receive webhooks: public HTTPS only in production; loopback receivers only when
 * the Worker runs with WEBHOOKS_ALLOW_LOCAL=true (as `npm run dev` does).
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { api, createAccount, json, origin, problem } from "../support/api";

const events = ["booking.created"];

/** POST /webhooks through the same app, with the Worker's bindings plus `extraEnv`. */
async function registerWith(extraEnv: Record<string, string>, key: string, url: string) {
  const request = new Request(`${origin}/api/v1/webhooks`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ url, events }),
  });
  const ctx = createExecutionContext();
  const response = await app.fetch(request, { ...env, ...extraEnv }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

const refusedInProduction = [
  ["credentials", "https://user:secret@hooks.example.com/x"],
  ["a user name alone", "https://user@hooks.example.com/x"],
  ["another port", "https://hooks.example.com:8443/x"],
  ["plain http", "http://hooks.example.com/x"],
  ["an IPv4 literal", "https://203.0.113.7/x"],
  ["a private IPv4 literal", "https://10.0.0.5/x"],
  ["an IPv4 literal in hex", "https://0x7f000001/x"],
  ["an IPv4 literal as one number", "https://2130706433/x"],
  ["an IPv6 literal", "https://[2001:db8::1]/x"],
  ["localhost", "https://localhost/x"],
  ["a .localhost name", "https://api.localhost/x"],
  ["an mDNS name", "https://printer.local/x"],
  ["an .internal name", "https://db.internal/x"],
  ["a home network name", "https://nas.home.arpa/x"],
  ["a single-label name", "https://intranet/x"],
  ["loopback over http", "http://127.0.0.1:8788/webhooks"],
  ["loopback by name", "http://localhost:8788/webhooks"],
  ["IPv6 loopback", "http://[::1]:8788/webhooks"],
  ["not a URL", "hooks.example.com/x"],
  ["another scheme", "ftp://hooks.example.com/x"],
] as const;

describe("webhook receiver URLs in production", () => {
  it.each(refusedInProduction)("refuses %s (%s) with a 422 at url, storing nothing", async (_what, url) => {
    const { apiKey } = await createAccount();
    const body = await problem(
      await api("POST", "/webhooks", { key: apiKey, body: { url, events } }),
      422,
      "validation_failed",
    );
    expect(body.errors.map((e: { path: string }) => e.path)).toEqual(["url"]);
    expect((await json(await api("GET", "/webhooks", { key: apiKey }))).pagination.total).toBe(0);
  });

  it("accepts a public HTTPS name, an explicit :443 included", async () => {
    const { apiKey } = await createAccount();
    for (const url of ["https://hooks.example.com/bookings", "https://HOOKS.example.com:443/b?x=1"]) {
      const res = await api("POST", "/webhooks", { key: apiKey, body: { url, events } });
      expect(res.status).toBe(201);
    }
  });

  it("an explicit WEBHOOKS_ALLOW_LOCAL other than true still refuses loopback receivers", async () => {
    const { apiKey } = await createAccount();
    await problem(
      await registerWith({ WEBHOOKS_ALLOW_LOCAL: "1" }, apiKey, "http://127.0.0.1:8788/webhooks"),
      422,
      "validation_failed",
    );
  });
});

describe("webhook receiver URLs with WEBHOOKS_ALLOW_LOCAL=true (npm run dev)", () => {
  it("accepts http and https receivers on this machine", async () => {
    const { apiKey } = await createAccount();
    for (const url of [
      "http://127.0.0.1:8788/webhooks",
      "http://localhost:8788/w",
      "http://[::1]:9000/",
      "https://localhost/w",
    ]) {
      const res = await registerWith({ WEBHOOKS_ALLOW_LOCAL: "true" }, apiKey, url);
      expect(res.status, url).toBe(201);
      expect((await json(res)).url).toBe(url);
    }
  });

  it("still refuses other private hosts, credentials and plain http elsewhere", async () => {
    const { apiKey } = await createAccount();
    for (const url of [
      "http://10.0.0.5/x",
      "http://192.168.1.10:8080/x",
      "http://user:pw@127.0.0.1:8788/x",
      "http://hooks.example.com/x",
      "http://printer.local/x",
    ]) {
      await problem(await registerWith({ WEBHOOKS_ALLOW_LOCAL: "true" }, apiKey, url), 422, "validation_failed");
    }
    expect((await json(await api("GET", "/webhooks", { key: apiKey }))).pagination.total).toBe(0);
  });

  it("says why a private or link-local address is refused, rather than asking for https", async () => {
    const { apiKey } = await createAccount();
    for (const url of ["http://169.254.169.254/latest/", "http://127.0.0.2:8788/w", "https://10.0.0.5/x"]) {
      const body = await problem(
        await registerWith({ WEBHOOKS_ALLOW_LOCAL: "true" }, apiKey, url),
        422,
        "validation_failed",
      );
      expect(body.errors[0].message, url).toMatch(/private, loopback or link-local address, which is not allowed/);
    }
  });
});
