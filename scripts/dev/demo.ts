/**
 * What the demo seeding made, filled in step by step as `seedDemo` (seed.ts) runs, so that a step
 * failing midway still leaves the banner what was made before it. Its own module: the steps fill
 * it and seed.ts runs the steps, so neither imports the other for it.
 */
/** What the banner shows of the demo; "" (or none) for what is not there. */
export type Demo = {
  /** The booking page for customers, once the business has its slug and the page is on. */
  pageUrl: string;
  /** The demo visit (`apt_…`) and series (`ser_…`), whether seeded now or found. */
  visitId: string;
  seriesId: string;
  /** The first demo stylist's calendar feed, issued anew at every start. */
  feedUrl: string;
  /** A demo customer's manage link (their booking, without a key). */
  manageUrl: string;
  /** The demo members' sign-in links, made anew at every start. */
  signIns: { name: string; link: string }[];
};
