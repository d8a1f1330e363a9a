/**
 * The office's stylesheet and script, served like the booking pages' assets: under names that
 * carry a hash of their text, cached for a year (a new version is a new address).
 */
import type { Context } from "hono";
import { assetHashOf } from "../../pages/assets";
import { officeScript } from "./script";
import { officeStylesheet } from "./style";

const ASSETS = "/office/_assets";
const cssName = `office.${assetHashOf(officeStylesheet)}.css`;
const jsName = `office.${assetHashOf(officeScript)}.js`;
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
