/**
 * `npm run webhooks:listen` against the dev server: a receiver on 127.0.0.1 is accepted (the dev
 * server runs with WEBHOOKS_ALLOW_LOCAL=true), gets a real signed delivery through the local
 * queue for a new booking, prints it once its signature verified, and removes its endpoint on exit.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { api, baseUrl, bookingBody, createBooking, createOpenService, utcAt } from "./support";

const script = path.resolve(import.meta.dirname, "..", "..", "scripts", "webhooks-listen.ts");
let listener: ChildProcess | undefined;

afterAll(() => {
  if (listener && listener.exitCode === null) listener.kill("SIGKILL");
});

/** Resolves with the first accumulated output that `found` accepts, or rejects after `ms`. */
function waitFor(stream: NodeJS.ReadableStream, found: (text: string) => boolean, what: string, ms = 30_000) {
  return new Promise<string>((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; got:\n${text}`)), ms);
    stream.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (found(text)) {
        clearTimeout(timer);
        resolve(text);
      }
    });
  });
}

describe("npm run webhooks:listen", () => {
  it("prints the verified booking.created event of a new booking, then deletes its endpoint", async () => {
    const child = spawn(
      process.execPath,
      [script, "--api", baseUrl, "--port", "0", "--events", "booking.created", "--json"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    listener = child;
    const ready = await waitFor(
      child.stderr as NodeJS.ReadableStream,
      (t) => /listening on .* as webhook whk_/.test(t),
      "the listener",
    );
    const webhookId = /as webhook (whk_\w+)/.exec(ready)?.[1] ?? "";
    expect(ready).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/webhooks/);

    // stdout stays paused (and buffers) until the waitFor below listens to it.
    const service = await createOpenService();
    const booking = await createBooking(bookingBody(service, utcAt(9, 11)));
    const printed = await waitFor(
      child.stdout as NodeJS.ReadableStream,
      (t) => t.includes(booking.id),
      `the booking.created event of ${booking.id}`,
      45_000,
    );
    const line = printed.split("\n").find((l) => l.includes(booking.id)) ?? "";
    const event = JSON.parse(line) as { id: string; type: string; data: { id: string; status: string } };
    expect(event.type).toBe("booking.created");
    expect(event.data).toMatchObject({ id: booking.id, status: booking.status });
    expect(event.id).toMatch(/^evt_/);

    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    const { response } = await api.GET("/webhooks/{id}", { params: { path: { id: webhookId } } });
    expect(response.status).toBe(404);
  });
});
