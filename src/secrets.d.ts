/**
 * The Worker's secrets and local-only switches, typed by hand: they are never in wrangler.toml,
 * and `npm run types` reads no env file, so the generated types' hash is the one `wrangler dev`
 * computes on a fresh clone (no .dev.vars) and it starts without "Your types might be out of date".
 * docs/operations.md, "Schema and binding changes".
 */
interface WorkerSecrets {
  /** Bearer token of the /internal operator routes; unset, they do not exist. */
  ADMIN_TOKEN: string;
  /** Local development only: receivers and calendars on this machine. */
  WEBHOOKS_ALLOW_LOCAL: string;
  MANAGE_LINK_SECRET: string;
  CALENDAR_SECRET: string;
}
interface Env extends WorkerSecrets {}
declare namespace Cloudflare {
  interface Env extends WorkerSecrets {}
}
