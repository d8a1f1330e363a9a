/**
 * What a request's `Content-Type` says, read by RFC 9110 §8.3.1's grammar: `type/subtype` and
 * `; name=value` parameters, each value a token or a quoted string. Type, subtype and parameter
 * names are case-insensitive; values are kept as sent.
 */

const token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const quoted = '"(?:[^"\\\\]|\\\\.)*"';
const essencePattern = new RegExp(`^(${token})/(${token})`);
const parameterPattern = new RegExp(`^[\\t ]*;[\\t ]*(${token})=(${token}|${quoted})`);

/** A parsed media type: `essence` lower-cased (`application/json`), parameter names lower-cased. */
export type MediaType = { essence: string; parameters: [name: string, value: string][] };

/** The media type of a `Content-Type` value, or undefined when it does not follow the grammar. */
export function parseMediaType(header: string): MediaType | undefined {
  const essence = essencePattern.exec(header);
  if (!essence) return undefined;
  const parameters: [string, string][] = [];
  let rest = header.slice(essence[0].length);
  while (rest.trim() !== "") {
    const parameter = parameterPattern.exec(rest);
    if (!parameter) return undefined;
    const [all, name = "", value = ""] = parameter;
    const unquoted = value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, "$1") : value;
    parameters.push([name.toLowerCase(), unquoted]);
    rest = rest.slice(all.length);
  }
  return { essence: essence[0].toLowerCase(), parameters };
}

/**
 * Why a request body labelled `header` is not one this API reads, or undefined when it is:
 * `application/json`, with a `charset` (if any, each one) of `utf-8` in any case, quoted or not.
 * Other parameters are ignored: RFC 8259 defines none for application/json.
 */
export function jsonMediaTypeRefusal(header: string | undefined): string | undefined {
  const sendJson = "Send the request body as application/json.";
  if (header === undefined) return sendJson;
  const type = parseMediaType(header);
  if (type?.essence !== "application/json") return sendJson;
  const charsets = type.parameters.filter(([name]) => name === "charset").map(([, value]) => value.toLowerCase());
  if (charsets.some((charset) => charset !== "utf-8")) {
    return "Send the request body in UTF-8: application/json, with charset=utf-8 or no charset.";
  }
  return undefined;
}
