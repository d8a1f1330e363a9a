/**
 * A business's accent colour made safe to read (WCAG 2.2 AA): the ink on accent-coloured buttons
 * is white or near-black, whichever contrasts more, and the accent used as text (links, open
 * days) is darkened until it reaches 4.5:1 on the light tint it sits on.
 */

/** The accent when a business sets none. */
export const DEFAULT_ACCENT = "#2554c7";

type Rgb = [number, number, number];

const rgbOf = (hex: string): Rgb => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as Rgb;
const hexOf = (rgb: Rgb) => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("")}`;

function luminance([r, g, b]: Rgb): number {
  const channel = (v: number) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The contrast ratio of two colours (1–21). */
export function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const WHITE: Rgb = [255, 255, 255];
const INK: Rgb = [16, 24, 40];
const BLACK: Rgb = [0, 0, 0];
/** The tint of open days and badges: 10 % accent on white, as the stylesheet mixes it. */
const tint = (rgb: Rgb): Rgb => rgb.map((v) => v * 0.1 + 255 * 0.9) as Rgb;

/** The custom properties of an accent (`#rrggbb`, else the default). */
export function accentColours(accent: string | null) {
  const base = accent && /^#[0-9a-fA-F]{6}$/.test(accent) ? accent.toLowerCase() : DEFAULT_ACCENT;
  const rgb = rgbOf(base);
  // White or the page's ink, whichever reads better; pure black where neither reaches 4.5:1
  // (mid-tones: white or black always reaches it with one of them).
  const better = contrast(rgb, WHITE) >= contrast(rgb, INK) ? WHITE : INK;
  const ink = contrast(rgb, better) >= 4.5 ? better : BLACK;
  const background = tint(rgb);
  let text = rgb;
  // Darken in small steps: the hue stays, the text reaches 4.5:1 on the tint (and so on white).
  for (let i = 0; i < 40 && contrast(text, background) < 4.5; i++) text = text.map((v) => v * 0.92) as Rgb;
  return { accent: base, ink: hexOf(ink), text: hexOf(text) };
}
