/**
 * A minimal Chrome DevTools Protocol client for workerd's V8 inspector (Miniflare's
 * `inspectorPort`): enough to force a garbage collection, read the isolate's heap and record a
 * CPU profile.
 */

export type CpuProfile = {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[];
  startTime: number;
  endTime: number;
  samples?: number[];
};

export type Inspector = {
  /** Sends one protocol command and resolves with its result. */
  send<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** Forces a full collection, then reads the used and total heap of the isolate (bytes). */
  heapAfterGc(): Promise<{ usedSize: number; totalSize: number }>;
  close(): void;
};

/** Connects to one worker's isolate: `ws://127.0.0.1:<inspectorPort>/core:user:<workerName>`. */
export async function connectInspector(port: number, workerName: string): Promise<Inspector> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/core:user:${workerName}`);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener("open", () => resolve(), { once: true });
    socket.addEventListener("error", () => reject(new Error(`inspector at port ${port} refused ${workerName}`)), {
      once: true,
    });
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    if (message.id === undefined) return; // events (console, GC) are not needed here
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) waiter?.reject(new Error(message.error.message));
    else waiter?.resolve(message.result);
  });

  const send = <T>(method: string, params: Record<string, unknown> = {}) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });

  return {
    send,
    async heapAfterGc() {
      // workerd's inspector does not answer HeapProfiler.collectGarbage; a heap snapshot runs a
      // full collection first (its chunks arrive as events and are dropped).
      await send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
      return send<{ usedSize: number; totalSize: number }>("Runtime.getHeapUsage");
    },
    close: () => socket.close(),
  };
}

/** Self time per function of a CPU profile, largest first, as shares of the sampled time. */
export function selfTimeByFunction(profile: CpuProfile, top = 12): { fn: string; share: number }[] {
  const hits = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const count = node.hitCount ?? 0;
    if (count === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.split("/").pop()}:${lineNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"}${where ? ` ${where}` : ""}`;
    hits.set(key, (hits.get(key) ?? 0) + count);
    total += count;
  }
  return [...hits.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([fn, count]) => ({ fn, share: Math.round((count / Math.max(total, 1)) * 1000) / 10 }));
}
