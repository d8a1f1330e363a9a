/**
 * The pages' stylesheet and script, served by the Worker under names that carry a hash of their
 * text, so each can be cached for a year and a deploy that changes one changes its address.
 */
import { passkeyScript } from "./passkeys";
import { embedScript, script } from "./script";
import { stylesheet } from "./style";

/**
 * The hash an asset's name carries (the office's assets too): FNV-1a, 32 bits, in base 36,
 * enough to tell two versions of a file apart.
 */
export function assetHashOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/** Where the assets live: a segment no slug can be (slugs have no `_`). */
export const ASSETS_PATH = "/book/_assets";

const files = {
  [`booking.${assetHashOf(stylesheet)}.css`]: { body: stylesheet, type: "text/css; charset=utf-8" },
  [`booking.${assetHashOf(script)}.js`]: { body: script, type: "text/javascript; charset=utf-8" },
  [`passkeys.${assetHashOf(passkeyScript)}.js`]: { body: passkeyScript, type: "text/javascript; charset=utf-8" },
};

const [cssName, jsName, passkeysName] = Object.keys(files) as [string, string, string];

/** The stylesheet's and the scripts' addresses (the office's passkey ceremonies have their own). */
export const assetPaths = {
  css: `${ASSETS_PATH}/${cssName}`,
  js: `${ASSETS_PATH}/${jsName}`,
  passkeys: `${ASSETS_PATH}/${passkeysName}`,
};

/** An asset by its file name, or undefined. */
export const assetNamed = (name: string) => files[name];

/** The embed script's text. */
export { embedScript };
