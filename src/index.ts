import { app } from "./app";

export { ServiceCalendar } from "./calendar/service-calendar";

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
