/**
 * Vitest `globalSetup` (Node) of the Workers tests: a real CalDAV server, Xandikos (the Debian
 * package `xandikos`, which .ci/run installs when missing), on a free loopback port with a fresh
 * directory, its URL provided to the tests (`inject("caldav")`). The tests in workerd reach it
 * over real HTTP. A small control server on loopback lets a test start a Xandikos of its own and
 * stop and start it again (the server down, then back up) without disturbing other files' tests.
 * Teardown stops every Xandikos it started by its own process id and removes the directories.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { freePort } from "../support/dev-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The shared Xandikos (`url`, e.g. http://127.0.0.1:41234) and the control server, or why there is none. */
    caldav: { url: string | null; control: string | null; error: string | null };
  }
}

/** Xandikos answered within ~1 s here; a loaded machine gets more. */
const START_TIMEOUT_MS = 20_000;
const XANDIKOS = process.env.XANDIKOS_BIN ?? "xandikos";

type Instance = { dir: string; port: number; child: ChildProcess | null };

const urlOf = (instance: Instance) => `http://127.0.0.1:${instance.port}`;

/** Starts (or starts again, same port and data) one Xandikos and waits until it answers. */
async function start(instance: Instance): Promise<void> {
  const child = spawn(XANDIKOS, ["--defaults", "-d", instance.dir, "-l", "127.0.0.1", "-p", String(instance.port)], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const spawned = new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("spawn", () => resolve());
  });
  await spawned;
  instance.child = child;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`xandikos exited (${child.exitCode}): ${stderr}`);
    try {
      const res = await fetch(`${urlOf(instance)}/user/calendars/`, { method: "PROPFIND", headers: { Depth: "0" } });
      await res.body?.cancel();
      if (res.status < 500) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`xandikos did not answer within ${START_TIMEOUT_MS} ms: ${stderr}`);
}

/** Stops one Xandikos by its own process id and waits for it to exit. */
async function stop(instance: Instance): Promise<void> {
  const child = instance.child;
  instance.child = null;
  if (!child || child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(child.pid, "SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, "SIGKILL");
}

async function newInstance(): Promise<Instance> {
  return { dir: mkdtempSync(path.join(tmpdir(), "xandikos-")), port: await freePort(), child: null };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const instances = new Map<string, Instance>();
  const control = createServer((req, res) => {
    const answer = (status: number, body: object) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const [, kind, id, action] = (req.url ?? "").split("/");
    (async () => {
      if (req.method !== "POST" || kind !== "servers") return answer(404, { error: "unknown" });
      if (!id) {
        const instance = await newInstance();
        const key = String(instances.size + 1);
        instances.set(key, instance);
        await start(instance);
        return answer(201, { id: key, url: urlOf(instance) });
      }
      const instance = instances.get(id);
      if (!instance) return answer(404, { error: "no such server" });
      if (action === "stop") await stop(instance);
      else if (action === "start") await start(instance);
      else return answer(404, { error: "unknown action" });
      return answer(200, { id, url: urlOf(instance) });
    })().catch((error: unknown) => answer(500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  const address = control.address();
  const controlUrl = typeof address === "object" && address ? `http://127.0.0.1:${address.port}` : null;

  const shared = await newInstance();
  instances.set("shared", shared);
  let error: string | null = null;
  try {
    await start(shared);
  } catch (e) {
    error = `No CalDAV server for the tests: ${e instanceof Error ? e.message : String(e)}. Install the Debian package xandikos (.ci/run does).`;
  }
  project.provide("caldav", { url: error ? null : urlOf(shared), control: controlUrl, error });

  return async () => {
    await new Promise<void>((resolve) => control.close(() => resolve()));
    for (const instance of instances.values()) {
      await stop(instance);
      rmSync(instance.dir, { recursive: true, force: true });
    }
  };
}
