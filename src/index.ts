import { app } from "./app";
import { nightly } from "./maintenance";

export { ServiceCalendar } from "./calendar/service-calendar";

export default {
  fetch: app.fetch,
  scheduled: (_controller, env, ctx) => ctx.waitUntil(nightly(env)),
} satisfies ExportedHandler<Env>;
