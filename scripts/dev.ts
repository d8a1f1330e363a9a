/**
 * `npm run dev [-- <wrangler dev options>]` (and `npm start`): the local API with a seeded demo
 * business. Each step is a module of scripts/dev/, in the order they run:
 *
 *  1. read the arguments: all go on to wrangler; `--ip`, `--port` and `--persist-to` say where
 *     the server is and where its state lives (options.ts);
 *  2. start `wrangler dev` on this terminal, on 127.0.0.1:8787 unless told otherwise (server.ts),
 *     stopped with this process whatever ends it (stop.ts);
 *  3. meanwhile, apply migrations/ to local D1 (the directory `DB` and every shard `DB_0`, `DB_1`)
 *     and ensure the demo business "Demo Salon" on shard 0 with its fixed, local-only key, unless
 *     this state folder was prepared already (prepare.ts); nothing this script sends reaches D1
 *     before that is done (`/health`, awaited meanwhile, does not touch storage);
 *  4. send the first real request with the demo key and note when it was answered (first-request.ts);
 *  5. seed through the API, each only when missing: e-mails on, providers, a room, services,
 *     customers, bookings, a visit and a weekly series, the booking page; then make this start's
 *     feed, manage and sign-in links (seed.ts and the modules it names);
 *  6. print the banner: base URL, demo key, links, where the captured e-mails are (banner.ts).
 */
import { demoApi } from "./dev/api.ts";
import { printBanner } from "./dev/banner.ts";
import { firstRequest } from "./dev/first-request.ts";
import { sinceStart } from "./dev/log.ts";
import { readOptions, wantsHelp } from "./dev/options.ts";
import { prepareState } from "./dev/prepare.ts";
import { seedDemo } from "./dev/seed.ts";
import { notSeeding, showWranglerHelp, startWrangler, waitUntilHealthy, wranglerArgs } from "./dev/server.ts";
import { failed, isStopping, stopWranglerWithThisProcess } from "./dev/stop.ts";

const options = readOptions(process.argv.slice(2));
stopWranglerWithThisProcess();

async function main(): Promise<void> {
  if (wantsHelp(options.args)) return showWranglerHelp(options.args);
  const wrangler = startWrangler(wranglerArgs(options));
  // wrangler and workerd start (the slow part) while local D1 is prepared.
  const [healthy] = await Promise.all([waitUntilHealthy(options.baseUrl, wrangler), prepareState(options)]);
  if (!healthy) return notSeeding(options.baseUrl, wrangler);
  const api = demoApi(options.baseUrl);
  const firstAnswer = await firstRequest(api, options.state);
  const demo = await seedDemo(api, options);
  if (!isStopping()) printBanner(options, demo, firstAnswer, sinceStart());
}

main().catch(failed);
