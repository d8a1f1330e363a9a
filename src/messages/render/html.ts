/**
 * A message's HTML part: the text part's content with headings and links, styled inline. Nothing
 * is loaded from anywhere (no images, fonts or trackers); every value is escaped.
 */
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

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** Text as HTML (element content and quoted attribute values alike). */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => entities[c] as string);

const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;

function itemHtml(letter: Letter, item: LetterItem): string {
  const words = wordsFor(letter);
  const label = letter.items.length > 1 ? words.manageOne : words.manage;
  return [
    '<p style="padding:8px 12px;border-left:4px solid #0b6e4f">',
    `<b>${escapeHtml(item.serviceName)}</b>`,
    `<br>${escapeHtml(whenOf(letter.locale, item, item.timezone))}`,
    ...(item.previous
      ? [`<br><s>${escapeHtml(`${words.previously}: ${whenOf(letter.locale, item.previous, item.timezone)}`)}</s>`]
      : []),
    ...(item.manageUrl ? [`<br><a href="${escapeHtml(item.manageUrl)}">${escapeHtml(label)}</a>`] : []),
    "</p>",
  ].join("");
}

/** The HTML part: a complete document in the business's language. */
export function renderHtml(letter: Letter): string {
  const words = wordsFor(letter);
  const invite = inviteLineOf(letter);
  const body = [
    paragraph(greetingOf(letter)),
    paragraph(leadOf(letter)),
    ...letter.items.map((item) => itemHtml(letter, item)),
    ...(letter.reason ? [paragraph(`${words.reason}: ${letter.reason}`)] : []),
    ...(invite ? [paragraph(invite)] : []),
    paragraph(contactLineOf(letter)),
    paragraph(letter.business),
  ].join("\n");
  return [
    "<!doctype html>",
    `<html lang="${letter.locale}">`,
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subjectOf(letter))}</title></head>`,
    '<body style="font-family:Arial,sans-serif;line-height:1.5">',
    body,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
