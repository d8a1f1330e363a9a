/**
 * A message's HTML part: the text part's content with headings and links, styled inline, written
 * with hono/jsx like the booking pages, so every value is escaped by the JSX runtime. Nothing is
 * loaded from anywhere (no images, fonts or trackers), and the markup stays simple: paragraphs,
 * bold, a line break, a link.
 */
import type { Child } from "hono/jsx";
import {
  contactLineOf,
  greetingOf,
  inviteLineOf,
  type Letter,
  type LetterItem,
  leadOf,
  subjectOf,
  whenOf,
  wordsFor,
} from "./letter";

/** One booking: its service, its time, where it was, its manage link. */
function Item({ letter, item }: { letter: Letter; item: LetterItem }) {
  const words = wordsFor(letter);
  const label = letter.items.length > 1 ? words.manageOne : words.manage;
  return (
    <p style="padding:8px 12px;border-left:4px solid #0b6e4f">
      <b>{item.serviceName}</b>
      <br />
      {whenOf(letter.locale, item, item.timezone)}
      {item.previous && (
        <>
          <br />
          <s>{`${words.previously}: ${whenOf(letter.locale, item.previous, item.timezone)}`}</s>
        </>
      )}
      {item.manageUrl && (
        <>
          <br />
          <a href={item.manageUrl}>{label}</a>
        </>
      )}
    </p>
  );
}

/** The blocks one to a line, as the text part has them one to a paragraph. */
const onLines = (blocks: Child[]) => blocks.flatMap((block) => ["\n", block]);

/** The whole document, in the business's language. */
function Message({ letter }: { letter: Letter }) {
  const words = wordsFor(letter);
  const invite = inviteLineOf(letter);
  const blocks = [
    <p>{greetingOf(letter)}</p>,
    <p>{leadOf(letter)}</p>,
    ...letter.items.map((item) => <Item letter={letter} item={item} />),
    letter.reason && <p>{`${words.reason}: ${letter.reason}`}</p>,
    invite && <p>{invite}</p>,
    <p>{contactLineOf(letter)}</p>,
    <p>{letter.business}</p>,
  ].filter(Boolean);
  return (
    <html lang={letter.locale}>
      {"\n"}
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width" />
        <title>{subjectOf(letter)}</title>
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
  const html = (<Message letter={letter} />).toString();
  if (typeof html !== "string") throw new Error("An e-mail's HTML rendered asynchronously.");
  return `<!doctype html>\n${html}\n`;
}
