import { app } from "./app";
import type { DeliveryMessage } from "./audit/events";
import { nightly } from "./maintenance";
import { bindingMailer } from "./messages/mailer";
import { queueConsumer } from "./queue";

export { ProviderCalendar, ResourceCalendar, ServiceCalendar } from "./calendar";
export { BusinessRelocation } from "./relocations/relocation";

export default {
  fetch: app.fetch,
  scheduled: (_controller, env, ctx) => ctx.waitUntil(nightly(env)),
  queue: queueConsumer(bindingMailer),
} satisfies ExportedHandler<Env, DeliveryMessage>;
