/**
 * Who may do what, measured (`npm run bench -- --access [--baseline <rev>]`; docs/performance.md,
 * "Members and scopes"): a keyed read of one booking (`GET /bookings/{id}`) on a revision before
 * members and scopes (default c322d72) and on this tree, and the same read on this tree by a
 * signed-in member's session cookie instead of a key. Rounds alternate the builds so all three are
 * measured in the same minutes; each number is the median of the rounds' mean latencies (p50s come in whole milliseconds, too coarse
 * for a 10 % question at 3 ms).
 * Target: the scope check and the session each add at most 10 % to the keyed read's latency.
 */
import { checkoutAt } from "./baseline.ts";
import { runScenario } from "./load.ts";
import { bookingBody, call, service, slotOfDay } from "./seed.ts";
import { type BenchServer, startBenchServer } from "./server.ts";

type Target = { name: string; url: string; path: string; headers: Record<string, string> };

/** A service and one booking of a new business on `server`; answers its key and the booking's path. */
async function booked(server: BenchServer, name: string) {
  const key = await server.createAccount(`Access ${name}`);
  const serviceId = (await call(server.url, key, "POST", "/services", service(`Access ${name}`))).body.id;
  const booking = (await call(server.url, key, "POST", "/bookings", bookingBody(serviceId, slotOfDay(2)))).body.id;
  return { key, path: `/api/v1/bookings/${booking}` };
}

/** A signed-in owner of the key's business, made straight in the directory: the cookie's value. */
export async function sessionOf(server: BenchServer, key: string): Promise<string> {
  const value = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const hash = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value))).toString("hex");
  const now = new Date().toISOString();
  const later = new Date(Date.now() + 86_400_000).toISOString();
  const member = `mbr_bench${crypto.randomUUID().replaceAll("-", "").slice(0, 17)}`;
  await server.executeOnDirectory(
    `INSERT INTO members (id, business_id, email, name, role, provider_id, status, version, created_at, updated_at, last_sign_in_at)
     VALUES (?, ?, 'owner@bench.example', 'Bench Owner', 'owner', NULL, 'active', 1, ?, ?, ?)`,
    member,
    server.businessOf(key),
    now,
    now,
    now,
  );
  await server.executeOnDirectory(
    "INSERT INTO member_sessions (id, member_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)",
    hash,
    member,
    now,
    now,
    later,
  );
  return value;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

/** The three reads' mean-latency medians and this tree's over the baseline's. */
export async function compareAccess(rev: string, rounds: number, seconds: number) {
  const sources = checkoutAt(rev);
  const before = await startBenchServer({ root: sources.root });
  const after = await startBenchServer();
  try {
    const old = await booked(before, rev);
    const now = await booked(after, "this tree");
    const cookie = await sessionOf(after, now.key);
    const targets: Target[] = [
      { name: `${rev}: key`, url: before.url, path: old.path, headers: { authorization: `Bearer ${old.key}` } },
      { name: "this tree: key", url: after.url, path: now.path, headers: { authorization: `Bearer ${now.key}` } },
      { name: "this tree: session", url: after.url, path: now.path, headers: { cookie: `session=${cookie}` } },
    ];
    const p50s: number[][] = targets.map(() => []);
    for (let r = 0; r < rounds; r++) {
      for (const [i, t] of targets.entries()) {
        const result = await runScenario(t.name, {
          url: t.url,
          seconds,
          connections: 1,
          expectStatus: 200,
          request: () => ({ path: t.path, headers: t.headers }),
        });
        if (result.unexpected) throw new Error(`${t.name}: ${result.unexpected} answers were not 200`);
        p50s[i]?.push(Math.round(result.mean * 100) / 100);
      }
    }
    const [base, keyed, session] = p50s.map(median) as [number, number, number];
    return {
      meanMs: { [`${rev} key`]: base, "this tree key": keyed, "this tree session": session },
      rounds: Object.fromEntries(targets.map((t, i) => [t.name, p50s[i]])),
      keyOverBefore: ratio(keyed, base),
      sessionOverBefore: ratio(session, base),
    };
  } finally {
    await before.dispose();
    await after.dispose();
    sources.dispose();
  }
}
