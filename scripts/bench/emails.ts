/**
 * E-mails to customers and a create's latency: the same create for a business with e-mails on and
 * one with them off, one request each in turn (on, off, on, off, … on one connection), so both
 * see the same machine at the same moments, timed to the microsecond. Sending happens in the
 * queue consumer after the answer; the target is that the answer does not wait for it: p50 with
 * e-mails on within 5 % of off.
 */
import { bookingBody, call, service } from "./seed.ts";
import type { BenchServer } from "./server.ts";

export type EmailsPair = {
  /** Creates timed on each side. */
  requests: number;
  p50On: number;
  p50Off: number;
  p90On: number;
  p90Off: number;
  /** p50 with e-mails on over off. */
  p50Ratio: number;
  /** Messages the e-mails-on business had sent by the end, of the bookings it made. */
  sent: number;
  booked: number;
};

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** `requests` creates on each side (after `warmup` each, not counted), in alternation. */
export async function emailsOnVsOff(server: BenchServer, requests: number, warmup = 200): Promise<EmailsPair> {
  const setup = async (name: string, emails: boolean) => {
    const key = await server.createAccount(name);
    const patch = await call(server.url, key, "PATCH", "/business", { emails: { enabled: emails } });
    if (patch.status !== 200) throw new Error(`PATCH /business answered ${patch.status}`);
    const serviceId = (await call(server.url, key, "POST", "/services", service("Mailed"))).body.id;
    return { key, serviceId, slot: 0, times: [] as number[] };
  };
  const on = await setup("Bench mails on", true);
  const off = await setup("Bench mails off", false);
  const create = async (side: typeof on, counted: boolean) => {
    const started = performance.now();
    const res = await fetch(`${server.url}/api/v1/bookings`, {
      method: "POST",
      headers: { authorization: `Bearer ${side.key}`, "content-type": "application/json" },
      body: bookingBody(side.serviceId, side.slot++),
    });
    await res.arrayBuffer();
    if (res.status !== 201) throw new Error(`create answered ${res.status}`);
    if (counted) side.times.push(performance.now() - started);
  };
  for (let i = 0; i < warmup + requests; i++) {
    // Which side goes first changes every pair, so neither always follows the other.
    const [first, second] = i % 2 ? [on, off] : [off, on];
    await create(first, i >= warmup);
    await create(second, i >= warmup);
  }
  // The consumer keeps sending after the last answer: give it a moment, then count.
  await new Promise((r) => setTimeout(r, 5_000));
  const sortedOn = [...on.times].sort((a, b) => a - b);
  const sortedOff = [...off.times].sort((a, b) => a - b);
  const p50On = quantile(sortedOn, 0.5);
  const p50Off = quantile(sortedOff, 0.5);
  return {
    requests,
    p50On: round2(p50On),
    p50Off: round2(p50Off),
    p90On: round2(quantile(sortedOn, 0.9)),
    p90Off: round2(quantile(sortedOff, 0.9)),
    p50Ratio: Math.round((p50On / p50Off) * 1000) / 1000,
    booked: on.slot,
    sent: await server.count("SELECT count(*) AS n FROM messages WHERE status = 'sent'"),
  };
}
