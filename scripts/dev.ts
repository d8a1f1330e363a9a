/**
 * `npm run dev [-- <wrangler dev options>]`: the local API with a seeded demo business.
 *
 *  1. starts `wrangler dev` with every argument given here (plus `--ip 127.0.0.1` and
 *     `--port 8787` unless given), inheriting stdio;
 *  2. meanwhile, unless this state folder was already prepared (scripts/lib/dev-state.ts),
 *     applies migrations/ to local D1 in the same persist directory (the directory `DB` and the
 *     shards `DB_0`, `DB_1`) and ensures the demo business "Demo Salon" on shard 0 and its fixed
 *     local-only test key (scripts/lib/demo.ts). This script
 *     sends nothing that reaches D1 before that is done (/health does not touch storage), and
 *     prints its banner only afterwards;
 *  3. sends the first real request (GET /api/v1/services with the demo key) and prints how long
 *     after the start it was answered;
 *  4. turns the demo business's e-mails to customers on (wrangler dev captures them, sending none), then
 *     seeds providers, a room, services, customers and bookings through the HTTP API with the demo key, each only
 *     if the demo business has none yet, then a two-segment visit and a weekly series, each only if its demo
 *     customer has none yet;
 *  5. prints the base URL, the demo key, a sample curl, the demo visit and series, and where the
 *     captured e-mails are.
 *
 * Ctrl-C / SIGTERM stop wrangler (and so workerd) before this process exits.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { addLocalDays, instantOf, type LocalDate, localDateOf, weekdayOf } from "../src/calendar/rules/zoned.ts";
import { apiKeyRecord, insertApiKeySql, insertBusinessSql } from "./lib/accounts.ts";
import { info, out, repoRoot } from "./lib/cli.ts";
import {
  DEMO_API_KEY,
  DEMO_API_KEY_ID,
  DEMO_BUSINESS_ID,
  DEMO_BUSINESS_NAME,
  DEMO_CREATED_AT,
  DEMO_TIMEZONE,
  demoBookings,
  demoBusinessSettings,
  demoCustomers,
  demoProviders,
  demoRoom,
  demoSeries,
  demoServices,
  demoServicesWithProviders,
  demoServicesWithRoom,
  demoVisit,
} from "./lib/demo.ts";
import { demoSignInLinks } from "./lib/demo-members.ts";
import {
  clearPreparing,
  devSecretsFile,
  forgetPrepared,
  hasDatabase,
  isPrepared,
  markPrepared,
  markPreparing,
  newDatabaseStatements,
  preparationFingerprint,
  stateDir,
} from "./lib/dev-state.ts";
import { batchLocalD1 } from "./lib/local-d1.ts";
import {
  applyMigrations,
  type D1Target,
  d1Binding,
  executeSql,
  killRunningWranglers,
  shardBindings,
  spawnWrangler,
} from "./lib/wrangler.ts";

const log = (message: string) => info(`[dev] ${message}`);
const warn = (message: string) => info(`[dev] warning: ${message}`);

/** The value of `--name V` or `--name=V` in a wrangler argument list (the last one wins). */
function optionValue(args: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") break;
    if (arg === name && i + 1 < args.length) value = args[++i];
    else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
  }
  return value;
}

/** Host to reach a server listening on `ip` from this machine. */
function reachableHost(ip: string): string {
  if (ip === "0.0.0.0" || ip === "*") return "127.0.0.1";
  if (ip === "::" || ip === "[::]") return "[::1]";
  if (ip.includes(":") && !ip.startsWith("[")) return `[${ip}]`;
  return ip;
}

const args = process.argv.slice(2);
const ip = optionValue(args, "--ip");
const portText = optionValue(args, "--port");
const port = portText === undefined ? 8787 : Number(portText);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  info(`[dev] error: --port must be a port number, not "${portText}".`);
  process.exit(2);
}
const persistTo = optionValue(args, "--persist-to");
const target: D1Target = { remote: false, persistTo };
const state = stateDir(persistTo);
/** Seconds since this process started, for the start-up timings printed below. */
const sinceStart = () => `${(performance.now() / 1000).toFixed(1)} s`;
const origin = `http://${reachableHost(ip ?? "127.0.0.1")}:${port}`;
const baseUrl = `${origin}/api/v1`;

let wrangler: ChildProcess | undefined;
/** When the first real request was answered, e.g. "4.2 s". */
let firstAnswer = "";
/** The first demo stylist's calendar feed, issued anew at every start (its address is shown once). */
let demoFeedUrl = "";
/** A demo customer's manage link (their booking, without a key). */
let demoManageUrl = "";
/** The demo members' sign-in links, made anew at every start (scripts/lib/demo-members.ts). */
let demoSignIns: { name: string; link: string }[] = [];
/** The demo's booking page, once the business has its slug and the page is on. */
let demoPageUrl = "";
/** The demo visit (`apt_…`) and series (`ser_…`), whether seeded now or found. */
let demoVisitId = "";
let demoSeriesId = "";
let stopping = false;

function stop(signal: NodeJS.Signals): void {
  if (stopping) {
    // A second Ctrl-C: do not wait any longer.
    wrangler?.kill("SIGKILL");
    killRunningWranglers("SIGKILL");
    process.exit(130);
  }
  stopping = true;
  if (!wrangler) {
    killRunningWranglers("SIGTERM");
    process.exit(signal === "SIGINT" ? 130 : 143);
  }
  log("stopping wrangler…");
  const child = wrangler;
  // Ctrl-C in a terminal reaches wrangler too (same process group); give it a moment before a SIGTERM.
  const term = setTimeout(() => child.kill("SIGTERM"), signal === "SIGINT" ? 2000 : 0);
  const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
  term.unref();
  kill.unref();
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => stop(signal));
// `npm run dev` runs us under `sh -c`; a SIGTERM sent to npm ends that shell without passing it on.
// Being re-parented means whoever started us is gone: stop as if we had been sent SIGTERM.
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid && !stopping) {
    log("parent process exited.");
    stop("SIGTERM");
  }
}, 500).unref();
process.on("exit", () => {
  if (wrangler && wrangler.exitCode === null && wrangler.signalCode === null) wrangler.kill("SIGTERM");
});

/** The statements that create the demo business and its fixed key, re-activating the key if it was revoked. */
async function demoAccountStatements(): Promise<string[]> {
  const key = await apiKeyRecord(DEMO_API_KEY_ID, DEMO_BUSINESS_ID, DEMO_API_KEY, new Date(DEMO_CREATED_AT));
  const business = {
    id: DEMO_BUSINESS_ID,
    name: DEMO_BUSINESS_NAME,
    createdAt: DEMO_CREATED_AT,
    updatedAt: DEMO_CREATED_AT,
  };
  const upsertKey = insertApiKeySql(key).replace(/;$/, " ON CONFLICT(id) DO UPDATE SET revoked_at = NULL;");
  return [insertBusinessSql(business, true), upsertKey];
}

/** Migrations and the demo account, unless this state folder already has both. */
async function prepareState(): Promise<void> {
  const demoStatements = await demoAccountStatements();
  const demoSql = demoStatements.join("\n");
  // A shard added to wrangler.toml prepares the state again.
  const fingerprint = preparationFingerprint(`${demoSql}\n-- shards: ${shardBindings().join(",")}`);
  if (isPrepared(state, fingerprint)) {
    log("migrations and the demo account are already in place.");
    return;
  }
  markPreparing(state);
  try {
    await writeState(demoStatements);
  } finally {
    clearPreparing(state);
  }
  markPrepared(state, fingerprint);
  log(`local D1 prepared (${sinceStart()} after start).`);
}

/** Makes a new state, or brings an existing one up to date. */
async function writeState(demoStatements: string[]): Promise<void> {
  const where = `local D1 (${persistTo ?? ".wrangler/state"})`;
  if (!hasDatabase(state)) {
    log(`creating ${where} with every migration and the demo business "${DEMO_BUSINESS_NAME}" while wrangler starts…`);
    await batchLocalD1(state, newStateStatements(demoStatements));
  } else {
    const demoSql = demoStatements.join("\n");
    log(`applying migrations to ${where} (the directory and every shard) while wrangler starts…`);
    await applyMigrations(target);
    log(`ensuring the demo business "${DEMO_BUSINESS_NAME}" and its key…`);
    await executeSql(target, demoSql, "DB_0");
    await executeSql(target, demoSql);
  }
}

/**
 * Each database of a new state, as one transaction: every migration, and on the directory and
 * shard 0 (where the demo business lives) its rows; the other shards start empty.
 */
function newStateStatements(demoStatements: string[]): Record<string, string[]> {
  const [first, ...others] = shardBindings();
  const statements: Record<string, string[]> = { [d1Binding]: newDatabaseStatements(demoStatements) };
  if (first) statements[first] = newDatabaseStatements(demoStatements);
  for (const binding of others) statements[binding] = newDatabaseStatements([]);
  return statements;
}

type ApiResponse = { status: number; body: unknown };

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${DEMO_API_KEY}`,
      Accept: "application/json",
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: response.status, body: parsed } satisfies ApiResponse;
}

/** "HTTP 409 customer_exists: A customer with …" from a problem+json answer. */
function problemText(r: ApiResponse): string {
  const p = (r.body ?? {}) as { code?: string; detail?: string; errors?: { path: string; message: string }[] };
  const fields = p.errors?.map((e) => `${e.path}: ${e.message}`).join("; ");
  return [`HTTP ${r.status}`, p.code, p.detail, fields].filter(Boolean).join(" ");
}

type ListBody<T> = { data: T[]; pagination?: { total?: number } };

function totalOf(r: ApiResponse): number {
  const b = r.body as ListBody<unknown>;
  return b.pagination?.total ?? b.data?.length ?? 0;
}

async function waitForHealth(timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (stopping || !wrangler || wrangler.exitCode !== null || wrangler.signalCode !== null) return false;
    try {
      const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2000) });
      await response.body?.cancel();
      if (response.ok) return true;
    } catch {}
    await sleep(100);
  }
  return false;
}

/**
 * Turns the demo business's e-mails to customers on (before any demo booking, so their
 * confirmations are captured too): `wrangler dev` keeps every message locally, sending none.
 */
async function enableDemoEmails(): Promise<void> {
  const business = await api("GET", "/business");
  if (business.status !== 200) {
    warn(`cannot read the demo business (${problemText(business)}); its e-mails stay as they are.`);
    return;
  }
  if ((business.body as { emails?: { enabled?: boolean } }).emails?.enabled) return;
  const patched = await api("PATCH", "/business", { emails: { enabled: true } });
  if (patched.status !== 200) warn(`could not turn the demo's e-mails on: ${problemText(patched)}`);
}

/** Seeds what the demo business does not have yet. Problems are warnings: the server keeps running. */
async function seed(): Promise<void> {
  await enableDemoEmails();
  const servicesNow = await api("GET", "/services?active=true&limit=100");
  if (servicesNow.status !== 200) {
    warn(`cannot list services (${problemText(servicesNow)}); skipping the demo data.`);
    return;
  }
  let services = (servicesNow.body as ListBody<{ id: string; name: string }>).data;
  const seeded: string[] = [];
  if (services.length === 0) {
    const providerIds: string[] = [];
    for (const body of demoProviders) {
      const r = await api("POST", "/providers", body);
      if (r.status === 201) providerIds.push((r.body as { id: string }).id);
      else warn(`could not create provider "${body.name}": ${problemText(r)}`);
    }
    if (providerIds.length > 0) seeded.push(`${providerIds.length} providers`);
    const room = await api("POST", "/resources", demoRoom);
    const resourceIds = room.status === 201 ? [(room.body as { id: string }).id] : [];
    if (room.status === 201) seeded.push("1 room");
    else warn(`could not create resource "${demoRoom.name}": ${problemText(room)}`);
    services = [];
    for (const service of demoServices) {
      const body = {
        ...service,
        ...(demoServicesWithProviders.includes(service.name) ? { providerIds } : {}),
        ...(demoServicesWithRoom.includes(service.name) ? { resourceIds } : {}),
      };
      const r = await api("POST", "/services", body);
      if (r.status === 201) services.push(r.body as { id: string; name: string });
      else warn(`could not create service "${service.name}": ${problemText(r)}`);
    }
    seeded.push(`${services.length} services`);
  }

  const customersNow = await api("GET", "/customers?limit=1");
  if (customersNow.status !== 200) warn(`cannot list customers (${problemText(customersNow)}).`);
  else if (totalOf(customersNow) === 0) {
    let created = 0;
    for (const body of demoCustomers) {
      const r = await api("POST", "/customers", body);
      if (r.status === 201) created++;
      else if (r.status !== 409) warn(`could not create customer ${body.email}: ${problemText(r)}`);
    }
    seeded.push(`${created} customers`);
  }

  const bookingsNow = await api("GET", "/bookings?limit=1");
  if (bookingsNow.status !== 200) warn(`cannot list bookings (${problemText(bookingsNow)}); skipping demo bookings.`);
  else {
    // No bookings before this start: no visit or series either, so there is nothing to look up.
    const fresh = totalOf(bookingsNow) === 0;
    if (fresh) {
      const created = await seedBookings(services);
      if (created > 0) seeded.push(`${created} bookings`);
    }
    seeded.push(...(await seedVisitAndSeries(services, fresh)));
  }

  seeded.push(...(await seedBookingPage(services)));
  log(
    seeded.length
      ? `seeded ${seeded.join(", ")} for "${DEMO_BUSINESS_NAME}" (${sinceStart()} after start).`
      : "demo data already present.",
  );
  demoFeedUrl = await issueDemoFeed();
  demoManageUrl = await demoLink();
  // Browsers allow passkeys on `localhost`, not on an IP address: the links use that name.
  demoSignIns = await demoSignInLinks(api, origin.replace("127.0.0.1", "localhost"), target);
}

/**
 * The booking page: the business's slug, zone, contact and page settings, and every demo service
 * offered online — set once (a state whose business has a slug is left as it is).
 */
async function seedBookingPage(services: { id: string }[]): Promise<string[]> {
  const business = await api("GET", "/business");
  const current = business.body as { slug?: string | null; bookingPage?: { enabled: boolean } } | undefined;
  if (business.status !== 200) {
    warn(`cannot read the business (${problemText(business)}); no booking page.`);
    return [];
  }
  const seeded: string[] = [];
  if (!current?.slug) {
    const r = await api("PATCH", "/business", demoBusinessSettings);
    if (r.status !== 200) {
      warn(`could not set up the booking page: ${problemText(r)}`);
      return [];
    }
    for (const service of services) {
      const p = await api("PATCH", `/services/${service.id}`, { bookableOnline: true });
      if (p.status !== 200) warn(`could not offer service ${service.id} online: ${problemText(p)}`);
    }
    seeded.push("the booking page");
  }
  const settings = current?.slug ? current : demoBusinessSettings;
  if (settings.bookingPage?.enabled) demoPageUrl = `${origin}/book/${settings.slug}`;
  return seeded;
}

/** The manage link of the demo's latest appointment (what its customer would get by e-mail). */
async function demoLink(): Promise<string> {
  const latest = await api("GET", "/bookings?limit=1&status=CONFIRMED");
  return (latest.body as ListBody<{ manageUrl: string | null }> | undefined)?.data?.[0]?.manageUrl ?? "";
}

/** A new calendar feed address of the first demo stylist (the previous start's stops working). */
async function issueDemoFeed(): Promise<string> {
  const providers = await api("GET", "/providers?limit=100");
  const stylist = (providers.body as ListBody<{ id: string; name: string }> | undefined)?.data?.find(
    (p) => p.name === demoProviders[0]?.name,
  );
  if (!stylist) return "";
  const feed = await api("POST", `/providers/${stylist.id}/feed`);
  if (feed.status === 201) return (feed.body as { url: string }).url;
  warn(`could not issue ${stylist.name}'s calendar feed: ${problemText(feed)}`);
  return "";
}

/** The demo days: the first two dates at least two days ahead (every start > 24 h away) that are Mon, Wed or Fri. */
function demoDays(): LocalDate[] {
  const days: LocalDate[] = [];
  for (
    let date = addLocalDays(localDateOf(Date.now(), DEMO_TIMEZONE), 2);
    days.length < 2;
    date = addLocalDays(date, 1)
  ) {
    if (["mon", "wed", "fri"].includes(weekdayOf(date))) days.push(date);
  }
  return days;
}

/** A wall-clock time ("11:00") on a local date in `timezone`, as an instant. */
function wallClock(date: LocalDate, time: string, timezone: string): Date {
  const [hour = 0, minute = 0] = time.split(":").map(Number);
  return new Date(instantOf(date, hour * 60 + minute, timezone));
}

async function seedBookings(services: { id: string; name: string }[]): Promise<number> {
  const days = demoDays();
  let created = 0;
  for (const b of demoBookings) {
    const service = services.find((s) => s.name === b.service);
    const spec = demoServices.find((s) => s.name === b.service);
    const customer = demoCustomers[b.customer];
    const date = days[b.day];
    if (!service || !spec || !customer || !date) continue;
    const start = wallClock(date, b.start, spec.timezone);
    const end = new Date(start.getTime() + spec.durationMinutes * 60_000);
    const body = {
      serviceId: service.id,
      customerName: customer.name,
      customerEmail: customer.email,
      ...("phone" in customer ? { customerPhone: customer.phone } : {}),
      startTime: start.toISOString(),
      endTime: end.toISOString(),
      ...(b.notes ? { notes: b.notes } : {}),
    };
    const r = await api("POST", "/bookings", body, {
      "Idempotency-Key": `demo-seed:${service.id}:${body.startTime}:${customer.email}`,
    });
    if (r.status === 201 || r.status === 200) created++;
    else if (r.status === 404 || r.status === 405) {
      warn(`POST /api/v1/bookings is not available yet (HTTP ${r.status}); skipping demo bookings.`);
      break;
    } else warn(`could not book ${b.service} at ${body.startTime} for ${customer.email}: ${problemText(r)}`);
  }
  return created;
}

/**
 * The id in `field` ("appointmentId" or "seriesId") of a booking of the demo customer `email`
 * (cancelled ones count, as for the other demo data): "" when none has one, undefined (after a
 * warning) when it cannot tell.
 */
async function existingId(email: string, field: "appointmentId" | "seriesId"): Promise<string | undefined> {
  const customers = await api("GET", `/customers?search=${encodeURIComponent(email)}&limit=100`);
  if (customers.status !== 200) {
    warn(`cannot look up customer ${email} (${problemText(customers)}).`);
    return undefined;
  }
  const customer = (customers.body as ListBody<{ id: string; email: string }>).data.find(
    (c) => c.email.toLowerCase() === email.toLowerCase(),
  );
  if (!customer) return "";
  const bookings = await api("GET", `/bookings?customerId=${encodeURIComponent(customer.id)}&limit=100`);
  if (bookings.status !== 200) {
    warn(`cannot list the bookings of ${email} (${problemText(bookings)}).`);
    return undefined;
  }
  const data = (bookings.body as ListBody<Record<typeof field, string | null>>).data;
  return data.find((b) => b[field])?.[field] ?? "";
}

/**
 * The demo visit (two services back to back by one stylist) and the demo weekly series, each
 * unless its customer already has one; `fresh`: the business had no bookings before this start.
 * Two writes at most. Returns what it seeded, for the log line.
 */
async function seedVisitAndSeries(services: { id: string; name: string }[], fresh: boolean): Promise<string[]> {
  const seeded: string[] = [];
  const visitCustomer = demoCustomers[demoVisit.customer];
  const seriesCustomer = demoCustomers[demoSeries.customer];
  if (!visitCustomer || !seriesCustomer) return seeded;
  const [visitId, seriesId] = fresh
    ? ["", ""]
    : await Promise.all([
        existingId(visitCustomer.email, "appointmentId"),
        existingId(seriesCustomer.email, "seriesId"),
      ]);
  demoVisitId = visitId ?? "";
  demoSeriesId = seriesId ?? "";
  const days = demoDays();

  if (visitId === "") {
    const providers = await api("GET", "/providers?limit=100");
    const stylistName = demoProviders[demoVisit.provider]?.name;
    const stylist = (providers.body as ListBody<{ id: string; name: string }> | undefined)?.data?.find(
      (p) => p.name === stylistName,
    );
    const segments = demoVisit.segments.map((name) => services.find((s) => s.name === name));
    const first = demoServices.find((s) => s.name === demoVisit.segments[0]);
    const date = days[demoVisit.day];
    if (stylist && first && date && segments.every((s) => s !== undefined)) {
      const body = {
        customerName: visitCustomer.name,
        customerEmail: visitCustomer.email,
        ...("phone" in visitCustomer ? { customerPhone: visitCustomer.phone } : {}),
        startTime: wallClock(date, demoVisit.start, first.timezone).toISOString(),
        segments: segments.map((s) => ({ serviceId: s.id, providerId: stylist.id })),
      };
      const r = await api("POST", "/appointments", body, {
        "Idempotency-Key": `demo-seed:visit:${body.startTime}:${visitCustomer.email}`,
      });
      if (r.status === 201 || r.status === 200) {
        demoVisitId = (r.body as { id: string }).id;
        seeded.push(`1 visit (${(r.body as { bookings: unknown[] }).bookings.length} bookings)`);
      } else warn(`could not book the demo visit at ${body.startTime}: ${problemText(r)}`);
    }
  }

  if (seriesId === "") {
    const service = services.find((s) => s.name === demoSeries.service);
    const spec = demoServices.find((s) => s.name === demoSeries.service);
    const date = days[demoSeries.day];
    if (service && spec && date) {
      const start = wallClock(date, demoSeries.start, spec.timezone);
      const body = {
        serviceId: service.id,
        customerName: seriesCustomer.name,
        customerEmail: seriesCustomer.email,
        ...("phone" in seriesCustomer ? { customerPhone: seriesCustomer.phone } : {}),
        startTime: start.toISOString(),
        endTime: new Date(start.getTime() + spec.durationMinutes * 60_000).toISOString(),
        recurrence: demoSeries.recurrence,
        onConflict: "skip",
      };
      const r = await api("POST", "/series", body, {
        "Idempotency-Key": `demo-seed:series:${body.startTime}:${seriesCustomer.email}`,
      });
      if (r.status === 201 || r.status === 200) {
        const created = r.body as { id: string; bookings: unknown[]; skipped: { startTime: string; reason: string }[] };
        demoSeriesId = created.id;
        seeded.push(`1 series (${created.bookings.length} bookings)`);
        for (const s of created.skipped) warn(`the demo series skipped ${s.startTime} (${s.reason}).`);
      } else warn(`could not book the demo series from ${body.startTime}: ${problemText(r)}`);
    }
  }
  return seeded;
}

function banner(): void {
  const line = "─".repeat(72);
  out(
    [
      "",
      line,
      "  Booking API is running locally",
      "",
      `  Base URL  ${baseUrl}`,
      `  Demo key  ${DEMO_API_KEY}`,
      `            (business "${DEMO_BUSINESS_NAME}"; a fixed, local-only test key, never valid remotely)`,
      `  OpenAPI   ${baseUrl}/openapi.json`,
      `  Reference ${baseUrl}/docs`,
      `  Data      ${persistTo ?? ".wrangler/state"} (local D1 and Durable Objects)`,
      `  Started   first request answered ${firstAnswer} after start; ready with demo data ${sinceStart()}`,
      ...(demoPageUrl ? [`  Booking   ${demoPageUrl}  (the demo's page for customers; open it in a browser)`] : []),
      "",
      "  Try:",
      `    curl -H "Authorization: Bearer ${DEMO_API_KEY}" ${baseUrl}/services`,
      ...(demoVisitId || demoSeriesId
        ? [
            "",
            "  A visit of two services back to back, and a weekly series (GET with the key):",
            ...(demoVisitId ? [`    ${baseUrl}/appointments/${demoVisitId}`] : []),
            ...(demoSeriesId ? [`    ${baseUrl}/series/${demoSeriesId}`] : []),
          ]
        : []),
      ...(demoSignIns.length
        ? [
            "",
            "  Sign in to the office (each link once, within 15 minutes):",
            ...demoSignIns.map((m) => `    ${m.name}: ${m.link}`),
          ]
        : []),
      ...(demoManageUrl
        ? [
            "",
            "  A customer's own link to their booking (no key; POST to …/cancel or …/reschedule):",
            `    ${demoManageUrl}`,
          ]
        : []),
      ...(demoFeedUrl
        ? [
            "",
            `  ${demoProviders[0]?.name}'s calendar feed (subscribe in a calendar app; a new address every start):`,
            `    ${demoFeedUrl}`,
          ]
        : []),
      "",
      "  E-mails to customers are captured here, never sent (the Local Explorer lists them):",
      `    ${origin}/cdn-cgi/local/explorer`,
      `    curl -s ${origin}/cdn-cgi/local/explorer/api/local/email/sending   (newest first, as JSON)`,
      "",
      "  Ctrl-C stops the server.",
      line,
      "",
    ].join("\n"),
  );
}

async function main(): Promise<void> {
  if (args.includes("--help") || args.includes("-h")) {
    // Only wrangler's own help: no migrations, no server.
    spawnWrangler(["dev", ...args], { stdio: "inherit" }).once("exit", (code) => process.exit(code ?? 1));
    return;
  }
  const devArgs = ["dev", ...args];
  if (ip === undefined) devArgs.push("--ip", "127.0.0.1");
  if (portText === undefined) devArgs.push("--port", String(port));
  // Webhook receivers on this machine (`npm run webhooks:listen`); production never sets it.
  devArgs.push("--var", "WEBHOOKS_ALLOW_LOCAL:true");
  // Customers' manage links: this server's address, and the state's own signing secret
  // (a .dev.vars of yours is read after it, so a MANAGE_LINK_SECRET there wins).
  devArgs.push("--var", `PUBLIC_URL:${origin}`, "--env-file", devSecretsFile(state));
  if (existsSync(path.join(repoRoot, ".dev.vars"))) devArgs.push("--env-file", path.join(repoRoot, ".dev.vars"));
  log(`starting wrangler ${devArgs.join(" ")}`);
  const child = spawnWrangler(devArgs, { stdio: "inherit" });
  wrangler = child;
  child.once("error", (error) => {
    info(`[dev] error: could not start wrangler: ${error.message}`);
    process.exit(1);
  });
  child.once("exit", (code, signal) => {
    if (!stopping) info(`[dev] wrangler exited (${signal ?? `code ${code}`}).`);
    process.exit(code ?? (signal === "SIGINT" ? 130 : signal === "SIGTERM" ? 143 : 1));
  });

  // wrangler and workerd start (the slow part) while local D1 is prepared.
  const health = waitForHealth(120_000).then((ok) => {
    if (ok) log(`wrangler answered /health ${sinceStart()} after start.`);
    return ok;
  });
  const [healthy] = await Promise.all([health, prepareState()]);
  if (!healthy) {
    if (!stopping && child.exitCode === null) warn(`${baseUrl}/health did not answer within 120 s; not seeding.`);
    return;
  }
  const first = await api("GET", "/services?limit=1");
  firstAnswer = sinceStart();
  log(`first request answered ${firstAnswer} after start (GET /api/v1/services: HTTP ${first.status}).`);
  if (first.status === 401) {
    forgetPrepared(state);
    warn("the demo key is not valid in this state (revoked?); the next `npm run dev` restores it.");
  }
  try {
    await seed();
  } catch (error) {
    warn(`seeding failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!stopping) banner();
}

main().catch((error: unknown) => {
  info(`[dev] error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
  if (wrangler) {
    // Exit 1 (not wrangler's signal status) once it has stopped.
    wrangler.removeAllListeners("exit").once("exit", () => process.exit(1));
    wrangler.kill("SIGTERM");
  }
});
