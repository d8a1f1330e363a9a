/**
 * The day's addresses: `/office` (today in the business's zone), `/office/day/{YYYY-MM-DD}`, the
 * date picker's `/office/day?date=`, a person's week `/office/week/{YYYY-MM-DD}/{providerId}`,
 * and for each its live hooks: `…/version` (the fingerprint as an ETag, 304 while unchanged) and
 * `…/columns` (the columns alone).
 */
import { Hono } from "hono";
import { dayKeyOf } from "../../pages/i18n/format";
import type { DeskContext, DeskEnv } from "../frame/desk";
import { deskProblem } from "../frame/layout";
import { fingerprintOf, unchanged } from "./fingerprint";
import { firstRunOf } from "./first-run";
import { type Board, loadDay, loadWeek } from "./load";
import { columnsOf, dayPage, weekPage } from "./page";

/** The day's and week's pages and live hooks, mounted by desk.ts. */
export const dayRoutes = new Hono<DeskEnv>();

/** Whether `text` is a real calendar date `YYYY-MM-DD` (years 1970–9998). */
function isDay(text: string | undefined): text is string {
  if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const at = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === text && text >= "1970" && text < "9999";
}

const badDate = (c: DeskContext, status: 400 | 404) => {
  const { m } = c.var.desk;
  return deskProblem(c, status, m.errors.badDate, m.errors.badDateText);
};

/** The fingerprint alone: 304 while it is the one the script holds. */
async function version(c: DeskContext, board: Board) {
  const etag = await fingerprintOf(board);
  c.header("ETag", etag);
  c.header("Cache-Control", "no-store");
  if (unchanged(c.req.header("If-None-Match"), etag)) return c.body(null, 304);
  return c.json({ version: etag }, 200);
}

/** The columns alone, as the page draws them, for the script to put in. */
async function columns(c: DeskContext, board: Board) {
  c.header("ETag", await fingerprintOf(board));
  c.header("Cache-Control", "no-store");
  c.header("X-Content-Type-Options", "nosniff");
  return c.html(columnsOf(c, board), 200);
}

dayRoutes.get("/", async (c) => {
  const today = dayKeyOf(Date.now(), c.var.desk.timezone);
  // The checklist's one read runs beside the day's (an owner's only; an established business's is one look-up).
  const [board, run] = await Promise.all([loadDay(c, today), firstRunOf(c)]);
  return dayPage(c, today, board, await fingerprintOf(board), run);
});

dayRoutes.get("/day", (c) => {
  const date = c.req.query("date");
  return isDay(date) ? c.redirect(`/office/day/${date}`, 303) : badDate(c, 400);
});

dayRoutes.get("/day/:date", async (c) => {
  const day = c.req.param("date");
  if (!isDay(day)) return badDate(c, 404);
  const board = await loadDay(c, day);
  return dayPage(c, day, board, await fingerprintOf(board));
});

dayRoutes.get("/day/:date/version", async (c) => {
  const day = c.req.param("date");
  return isDay(day) ? version(c, await loadDay(c, day, false)) : badDate(c, 404);
});

dayRoutes.get("/day/:date/columns", async (c) => {
  const day = c.req.param("date");
  return isDay(day) ? columns(c, await loadDay(c, day)) : badDate(c, 404);
});

dayRoutes.get("/week/:date/:providerId", async (c) => {
  const { date, providerId } = c.req.param();
  if (!isDay(date)) return badDate(c, 404);
  const board = await loadWeek(c, date, providerId);
  return weekPage(c, date, providerId, board, await fingerprintOf(board));
});

dayRoutes.get("/week/:date/:providerId/version", async (c) => {
  const { date, providerId } = c.req.param();
  return isDay(date) ? version(c, await loadWeek(c, date, providerId, false)) : badDate(c, 404);
});

dayRoutes.get("/week/:date/:providerId/columns", async (c) => {
  const { date, providerId } = c.req.param();
  return isDay(date) ? columns(c, await loadWeek(c, date, providerId)) : badDate(c, 404);
});
