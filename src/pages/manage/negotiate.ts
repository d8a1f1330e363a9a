/** Content negotiation for the manage link: a browser gets the page, a program the JSON. */

type Weights = { html?: number; json?: number; text?: number; application?: number; any?: number };

/**
 * Whether an `Accept` header prefers HTML to JSON: `text/html` (or `text/*`, or `*∕*`) weighs
 * more than `application/json` (or `application/*`, or `*∕*`). A browser's navigation does; a
 * client sending nothing, `*∕*` or `application/json` gets JSON, as before.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const weights: Weights = {};
  for (const part of accept.slice(0, 1_000).split(",")) {
    const [range = "", ...params] = part.trim().toLowerCase().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q)) continue;
    const key =
      range === "text/html"
        ? "html"
        : range === "application/json"
          ? "json"
          : range === "text/*"
            ? "text"
            : range === "application/*"
              ? "application"
              : range === "*/*"
                ? "any"
                : undefined;
    if (key) weights[key] = Math.max(weights[key] ?? 0, q);
  }
  const html = weights.html ?? weights.text ?? weights.any ?? 0;
  const json = weights.json ?? weights.application ?? weights.any ?? 0;
  return html > 0 && html > json;
}

/** Whether a request's body is a browser's form (urlencoded or multipart). */
export function isForm(contentType: string | undefined): boolean {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase();
  return type === "application/x-www-form-urlencoded" || type === "multipart/form-data";
}
