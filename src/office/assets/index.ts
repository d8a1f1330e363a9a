/**
 * The office's stylesheet and script, served like the booking pages' assets: under names that
 * carry a hash of their text, cached for a year (a new version is a new address).
 */
import type { Context } from "hono";
import { officeScript } from "./script";
import { officeStylesheet } from "./style";

/** FNV-1a, 32 bits, in base 36: enough to tell two versions of a file apart. */
function hashOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

const ASSETS = "/office/_assets";
const cssName = `office.${hashOf(officeStylesheet)}.css`;
const jsName = `office.${hashOf(officeScript)}.js`;
const files: Record<string, { body: string; type: string }> = {
  [cssName]: { body: officeStylesheet, type: "text/css; charset=utf-8" },
  [jsName]: { body: officeScript, type: "text/javascript; charset=utf-8" },
};

/** The office stylesheet's and script's addresses. */
export const officeAssets = { css: `${ASSETS}/${cssName}`, js: `${ASSETS}/${jsName}` };

/** GET /office/_assets/:file: an asset, or a plain 404. */
export function serveOfficeAsset(c: Context) {
  const asset = files[c.req.param("file") ?? ""];
  if (!asset) return c.text("Not found", 404);
  return c.body(asset.body, 200, {
    "Content-Type": asset.type,
    "Cache-Control": "public, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Resource-Policy": "same-origin",
  });
}
