import { app } from "./app";
import type { WebhookMessage } from "./events/events";
import { nightly } from "./maintenance";
import { bindingMailer } from "./messages/mailer";
import { queueConsumer } from "./queue";

export { ProviderCalendar, ResourceCalendar, ServiceCalendar } from "./calendar";
export { TenantMove } from "./moves/tenant-move";

export default {
  fetch: app.fetch,
  scheduled: (_controller, env, ctx) => ctx.waitUntil(nightly(env)),
  queue: queueConsumer(bindingMailer),
} satisfies ExportedHandler<Env, WebhookMessage>;
