/**
 * A message's HTML part: the text part's content with headings and links, styled inline, written
 * with hono/jsx like the booking pages, so every value is escaped by the JSX runtime. Nothing is
 * loaded from anywhere (no images, fonts or trackers), and the markup stays simple: paragraphs,
 * bold, a line break, a link.
 */
import type { Child } from "hono/jsx";
import { type Content, contentOf, type ItemContent, type Letter } from "./letter";

/** One booking: its service, its time, where it was, its manage link. */
function Item({ item }: { item: ItemContent }) {
  return (
    <p style="padding:8px 12px;border-left:4px solid #0b6e4f">
      <b>{item.service}</b>
      <br />
      {item.when}
      {item.previously && (
        <>
          <br />
          <s>{item.previously}</s>
        </>
      )}
      {item.manage && (
        <>
          <br />
          <a href={item.manage.url}>{item.manage.label}</a>
        </>
      )}
    </p>
  );
}

/** The blocks one to a line, as the text part has them one to a paragraph. */
const onLines = (blocks: Child[]) => blocks.flatMap((block) => ["\n", block]);

/** The whole document, in the business's language. */
function Message({ locale, content }: { locale: string; content: Content }) {
  const blocks = [
    <p>{content.greeting}</p>,
    <p>{content.lead}</p>,
    ...content.items.map((item) => <Item item={item} />),
    content.reason && <p>{content.reason}</p>,
    content.invite && <p>{content.invite}</p>,
    <p>{content.contact}</p>,
    <p>{content.business}</p>,
  ].filter(Boolean);
  return (
    <html lang={locale}>
      {"\n"}
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width" />
        <title>{content.subject}</title>
      </head>
      {"\n"}
      <body style="font-family:Arial,sans-serif;line-height:1.5">
        {onLines(blocks)}
        {"\n"}
      </body>
      {"\n"}
    </html>
  );
}

/** The HTML part: a complete document. Its components are synchronous, so it renders to a string. */
export function renderHtml(letter: Letter): string {
  const html = (<Message locale={letter.locale} content={contentOf(letter)} />).toString();
  if (typeof html !== "string") throw new Error("An e-mail's HTML rendered asynchronously.");
  return `<!doctype html>\n${html}\n`;
}
