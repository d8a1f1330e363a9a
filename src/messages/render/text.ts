/** A message's plain-text part. */
import { contentOf, type ItemContent, type Letter } from "./letter";

const itemLines = (item: ItemContent): string[] => [
  item.service,
  item.when,
  ...(item.previously ? [item.previously] : []),
  ...(item.manage ? [`${item.manage.label}: ${item.manage.url}`] : []),
];

/** The text part: greeting, lead, each booking (time in its zone, the zone named, its link), the invite, the contact. */
export function renderText(letter: Letter): string {
  const content = contentOf(letter);
  const blocks = [
    content.greeting,
    content.lead,
    ...content.items.map((item) => itemLines(item).join("\n")),
    ...[content.reason, content.invite].filter((line) => line !== null),
    content.contact,
    content.business,
  ];
  return `${blocks.join("\n\n")}\n`;
}
