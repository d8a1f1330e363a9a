/**
 * WebDAV multistatus answers (RFC 4918 §13) as plain records: each response's href, its own
 * status (a 404 of a deleted or unknown member) and the properties of its 200 propstats. Parsed
 * by txml (2 KB); namespaces are matched by local name, since servers spell the prefixes as they
 * like (`d:`, `D:`, `ns0:`), and text is decoded here because txml leaves entities as they are
 * (calendar data comes with `&#13;` for every CR).
 */
import { parse, type TNode } from "txml/txml";

/** One `<response>`: its href (as sent), its status line if it has one, and its 200 properties. */
export type DavResponse = { href: string; status: number | null; props: Record<string, string | undefined> };

const localName = (tag: string) => tag.slice(tag.indexOf(":") + 1);

const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Decodes XML's five named entities and numeric character references. */
export const decodeXmlText = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/gi, (whole, entity: string) => {
    if (entity[0] !== "#") return named[entity.toLowerCase()] ?? whole;
    const code =
      entity[1] === "x" || entity[1] === "X" ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1));
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });

const children = (node: TNode, name: string) =>
  node.children.filter((child): child is TNode => typeof child !== "string" && localName(child.tagName) === name);

const textOf = (node: TNode | undefined) =>
  node ? decodeXmlText(node.children.filter((child) => typeof child === "string").join("")) : undefined;

/** The status code of an HTTP status line (`HTTP/1.1 404 Not Found`), or null. */
const statusOf = (line: string | undefined) => {
  const code = line ? /\s(\d{3})(\s|$)/.exec(line)?.[1] : undefined;
  return code ? Number(code) : null;
};

/** Thrown when an answer is not a multistatus: the calendar server or the URL is not CalDAV. */
export class NotMultistatus extends Error {}

/** The responses of a multistatus document. */
export function readMultistatus(xml: string): DavResponse[] {
  let nodes: (TNode | string)[];
  try {
    nodes = parse(xml, { selfClosingTags: [] });
  } catch {
    throw new NotMultistatus("The calendar server answered XML that could not be read.");
  }
  const root = nodes.find((n): n is TNode => typeof n !== "string" && localName(n.tagName) === "multistatus");
  if (!root)
    throw new NotMultistatus("The calendar server did not answer a WebDAV multistatus: is this a CalDAV calendar URL?");
  return children(root, "response").map((response) => {
    const props: Record<string, string | undefined> = {};
    for (const propstat of children(response, "propstat")) {
      if (statusOf(textOf(children(propstat, "status")[0])) !== 200) continue;
      for (const prop of children(propstat, "prop")) {
        for (const p of prop.children) if (typeof p !== "string") props[localName(p.tagName)] = textOf(p);
      }
    }
    const href = textOf(children(response, "href")[0]) ?? "";
    return { href, status: statusOf(textOf(children(response, "status")[0])), props };
  });
}

/**
 * The path an href names, percent-escapes decoded where they decode: what two spellings of one
 * member (a full URL or a path, `%40` or `@`) have in common.
 */
export function hrefPath(href: string, base: string): string {
  let path: string;
  try {
    path = new URL(href, base).pathname;
  } catch {
    path = href;
  }
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
