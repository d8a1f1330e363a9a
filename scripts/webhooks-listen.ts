/**
 * `npm run webhooks:listen [-- options]`: watch webhook events from `npm run dev` on this machine.
 *
 * Starts an HTTP receiver on 127.0.0.1, registers it as a webhook endpoint of the demo business
 * (or the business of --key) on the local API, prints every event whose Standard Webhooks
 * signature verifies (and refuses, with 401, any that does not), and deletes the endpoint again
 * on Ctrl-C. The local API accepts such a receiver only because `npm run dev` runs it with
 * WEBHOOKS_ALLOW_LOCAL=true; a deployed Worker never does.
 *
 *   --api URL      base URL of the API (default http://127.0.0.1:8787/api/v1)
 *   --key KEY      API key (default: the local demo key)
 *   --port N       receiver port (default 8788; 0 = any free port)
 *   --events LIST  comma-separated event types (default: all)
 *   --json         print each verified event as one JSON line on stdout
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { Webhook } from "standardwebhooks";
import { asUsageError, CommandError, info, out, runMain, UsageError } from "./lib/cli.ts";
import { DEMO_API_KEY } from "./lib/demo.ts";

const usage =
  "usage: npm run webhooks:listen -- [--api URL] [--key KEY] [--port N] [--events booking.created,...] [--json]";
const allEvents = ["booking.created", "booking.cancelled", "booking.updated"];
/** Receiver bodies are small JSON events; anything larger is refused unread. */
const maxBodyBytes = 256 * 1024;

type Options = { api: string; key: string; port: number; events: string[]; json: boolean };

function options(): Options {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        api: { type: "string", default: "http://127.0.0.1:8787/api/v1" },
        key: { type: "string", default: DEMO_API_KEY },
        port: { type: "string", default: "8788" },
        events: { type: "string", default: allEvents.join(",") },
        json: { type: "boolean", default: false },
      },
      strict: true,
    }));
  } catch (error) {
    throw asUsageError(error);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number.`);
  const events = String(values.events)
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  const unknown = events.filter((e) => !allEvents.includes(e));
  if (events.length === 0 || unknown.length) throw new UsageError(`--events takes some of ${allEvents.join(", ")}.`);
  return {
    api: String(values.api).replace(/\/+$/, ""),
    key: String(values.key),
    port,
    events,
    json: values.json === true,
  };
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** One line for a booking event (its data is the booking): when, what, which booking and its state. */
function summary(event: { type?: string; data?: Record<string, unknown> }, id: string): string {
  const booking = event.data ?? {};
  const parts = [
    event.type ?? "event",
    id,
    booking.id,
    booking.status,
    booking.startTime ? `starts ${booking.startTime}` : undefined,
    booking.customerName ? `for ${booking.customerName}` : undefined,
  ];
  return `${new Date().toISOString()}  ${parts.filter(Boolean).join("  ")}`;
}

async function api(o: Options, method: string, path: string, body?: unknown): Promise<Response> {
  try {
    return await fetch(`${o.api}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${o.key}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new CommandError(
      `cannot reach ${o.api} (${error instanceof Error ? error.message : String(error)}); is \`npm run dev\` running?`,
    );
  }
}

async function main(): Promise<void> {
  const o = options();
  let verifier: Webhook | undefined;

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const body = req.method === "POST" ? await readBody(req) : undefined;
    if (body === undefined || !verifier) {
      res.writeHead(req.method === "POST" ? 413 : 405).end();
      return;
    }
    const headers = {
      "webhook-id": String(req.headers["webhook-id"] ?? ""),
      "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
      "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
    };
    let event: { type?: string; timestamp?: string; data?: Record<string, unknown> };
    try {
      event = verifier.verify(body, headers) as typeof event;
    } catch (error) {
      info(`refused a request with an invalid signature: ${error instanceof Error ? error.message : String(error)}`);
      res.writeHead(401).end();
      return;
    }
    if (o.json) out(JSON.stringify({ id: headers["webhook-id"], ...event }));
    else out(summary(event, headers["webhook-id"]));
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const receiverUrl = `http://127.0.0.1:${port}/webhooks`;

  const created = await api(o, "POST", "/webhooks", {
    url: receiverUrl,
    events: o.events,
    description: "npm run webhooks:listen",
  });
  const createdBody = (await created.json().catch(() => ({}))) as {
    id?: string;
    secret?: string;
    detail?: string;
    errors?: { path: string; message: string }[];
  };
  if (created.status !== 201 || !createdBody.id || !createdBody.secret) {
    server.close();
    const why = createdBody.errors?.map((e) => `${e.path}: ${e.message}`).join("; ") ?? createdBody.detail ?? "";
    throw new CommandError(
      `could not register ${receiverUrl} (HTTP ${created.status}${why ? `: ${why}` : ""}). ` +
        "Local receivers need the API started by `npm run dev` (or WEBHOOKS_ALLOW_LOCAL=true in .dev.vars).",
    );
  }
  verifier = new Webhook(createdBody.secret);
  const webhookId = createdBody.id;
  info(`listening on ${receiverUrl} as webhook ${webhookId} for ${o.events.join(", ")}; Ctrl-C stops.`);

  let stopping = false;
  const stop = async () => {
    if (stopping) process.exit(130);
    stopping = true;
    server.close();
    const res = await api(o, "DELETE", `/webhooks/${webhookId}`).catch(() => undefined);
    info(res?.status === 204 ? `deleted webhook ${webhookId}.` : `could not delete webhook ${webhookId}.`);
    process.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void stop());
}

await runMain(main, usage);
