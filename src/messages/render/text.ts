/** A message's plain-text part. */
import {
  contactLineOf,
  greetingOf,
  inviteLineOf,
  type Letter,
  type LetterItem,
  leadOf,
  whenOf,
  wordsFor,
} from "./letter";

function itemLines(letter: Letter, item: LetterItem): string[] {
  const words = wordsFor(letter);
  return [
    item.serviceName,
    whenOf(letter.locale, item, item.timezone),
    ...(item.previous ? [`${words.previously}: ${whenOf(letter.locale, item.previous, item.timezone)}`] : []),
    ...(item.manageUrl ? [`${letter.items.length > 1 ? words.manageOne : words.manage}: ${item.manageUrl}`] : []),
  ];
}

/** The text part: greeting, lead, each booking (time in its zone, the zone named, its link), the invite, the contact. */
export function renderText(letter: Letter): string {
  const words = wordsFor(letter);
  const invite = inviteLineOf(letter);
  const blocks = [
    greetingOf(letter),
    leadOf(letter),
    ...letter.items.map((item) => itemLines(letter, item).join("\n")),
    ...(letter.reason ? [`${words.reason}: ${letter.reason}`] : []),
    ...(invite ? [invite] : []),
    contactLineOf(letter),
    letter.business,
  ];
  return `${blocks.join("\n\n")}\n`;
}
