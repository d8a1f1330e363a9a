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

const paragraph = (text: string) => `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`;

function itemHtml(letter: Letter, item: LetterItem): string {
  const words = wordsFor(letter);
  const label = letter.items.length > 1 ? words.manageOne : words.manage;
  return [
    '<div style="margin:0 0 16px;padding:12px 16px;border-left:4px solid #0b6e4f;background:#f4f7f6">',
    `<div style="font-weight:bold">${escapeHtml(item.serviceName)}</div>`,
    `<div>${escapeHtml(whenOf(letter.locale, item, item.timezone))}</div>`,
    ...(item.previous
      ? [
          `<div style="color:#555"><s>${escapeHtml(`${words.previously}: ${whenOf(letter.locale, item.previous, item.timezone)}`)}</s></div>`,
        ]
      : []),
    ...(item.manageUrl
      ? [`<div style="margin-top:8px"><a href="${escapeHtml(item.manageUrl)}">${escapeHtml(label)}</a></div>`]
      : []),
    "</div>",
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
    '<body style="margin:0;padding:24px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1a1a1a">',
    body,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
