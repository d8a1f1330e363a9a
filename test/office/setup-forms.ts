/** A setup page's first form as the browser would send it, with changes over it (for the setup tests; not a test file). */
import { page } from "../support/office";

const unescaped = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/**
 * The fields of the first setup `<form>` on `path` (text inputs, hidden inputs, ticked boxes, textareas,
 * selected options), with `changes` over them (undefined removes a field: an unticked box).
 */
export async function formOf(path: string, cookie: string, changes: Record<string, string | undefined> = {}) {
  const html = (await page(path, cookie)).html;
  const start = html.search(/<form[^>]*action="\/office\/setup/);
  const form = html.slice(start, html.indexOf("</form>", start));
  const fields: Record<string, string> = {};
  for (const [input] of form.matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(input)?.[1];
    const value = /value="([^"]*)"/.exec(input)?.[1] ?? "";
    if (!name) continue;
    if (input.includes('type="checkbox"')) {
      if (/\schecked/.test(input)) fields[name] = "on";
    } else fields[name] = unescaped(value);
  }
  for (const [, name, text] of form.matchAll(/<textarea[^>]*name="([^"]+)"[^>]*>([^<]*)<\/textarea>/g)) {
    fields[name as string] = unescaped(text as string);
  }
  for (const [, name, options] of form.matchAll(/<select[^>]*name="([^"]+)"[^>]*>(.*?)<\/select>/gs)) {
    const chosen =
      /<option value="([^"]*)" selected/.exec(options as string) ?? /<option value="([^"]*)"/.exec(options as string);
    fields[name as string] = chosen?.[1] ?? "";
  }
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete fields[name];
    else fields[name] = value;
  }
  return fields;
}
