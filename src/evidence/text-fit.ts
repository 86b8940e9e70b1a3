/**
 * Fitting text into boxes for the certificate page: clean-up of characters a
 * page cannot show, truncation with an ellipsis and word wrapping, measured
 * with our own font metrics. Every string handed to pdfme is already split
 * into lines that fit, so pdfme never wraps or clips.
 */
import type { FontMetrics } from "./font-metrics";

/**
 * Our widths (sum of advances) are compared with a box narrower than the one
 * given to pdfme by this factor, to absorb pdfme/fontkit's kerning-aware
 * measurement differences.
 */
export const FIT_SLACK = 1.04;

const ELLIPSIS = "\u2026";

// Bidirectional formatting characters: dropped, so that text cannot be
// visually reordered on the page (e.g. a right-to-left override in a name).
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// Other invisible format characters (zero-width, BOM, soft hyphen, tags...) are dropped too.
const FORMAT_CHARS = /[\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;
// Line breaks, tabs and other control characters become a space.
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * Makes `text` printable with `font`: NFC-normalised (the fonts carry no
 * layout tables, so combining sequences are shown precomposed where Unicode
 * has a precomposed form), control characters become spaces, bidi
 * and zero-width format characters are dropped, runs of spaces collapse, and
 * characters the font has no glyph for become U+FFFD (or "?" without one).
 */
export function printable(text: string, font: FontMetrics): string {
  const replacement = font.glyphId(0xfffd) !== 0 ? "\ufffd" : "?";
  let out = "";
  for (const ch of text
    .normalize("NFC")
    .replace(CONTROL_CHARS, " ")
    .replace(BIDI_CONTROLS, "")
    .replace(FORMAT_CHARS, "")) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0x20 || font.glyphId(cp) !== 0) out += ch;
    else if (/\p{M}/u.test(ch))
      continue; // an unsupported combining mark: drop it
    else if (/\s/u.test(ch)) out += " ";
    else out += replacement;
  }
  return out.replace(/ {2,}/g, " ").trim();
}

/** `text` shortened with a trailing ellipsis so it is at most `maxWidth` points wide. */
export function truncate(text: string, font: FontMetrics, size: number, maxWidth: number): string {
  const limit = maxWidth / FIT_SLACK;
  if (font.widthOf(text, size) <= limit) return text;
  const chars = Array.from(text);
  const ellipsis = font.widthOf(ELLIPSIS, size);
  let width = 0;
  let keep = 0;
  for (; keep < chars.length; keep++) {
    const w = font.widthOf(chars[keep]!, size);
    if (width + w + ellipsis > limit) break;
    width += w;
  }
  // Do not leave a dangling combining mark or space before the ellipsis.
  while (keep > 0 && /[\s\p{M}]/u.test(chars[keep - 1]!)) keep--;
  return chars.slice(0, keep).join("") + ELLIPSIS;
}

/** Like `truncate`, but cuts the middle out: keeps both ends (for ids and hashes). */
export function truncateMiddle(text: string, font: FontMetrics, size: number, maxWidth: number): string {
  const limit = maxWidth / FIT_SLACK;
  if (font.widthOf(text, size) <= limit) return text;
  const chars = Array.from(text);
  const room = limit - font.widthOf(ELLIPSIS, size);
  let head = 0;
  let tail = 0;
  let width = 0;
  for (;;) {
    const takeHead = head <= tail;
    const index = takeHead ? head : chars.length - 1 - tail;
    if (head + tail >= chars.length) break;
    const w = font.widthOf(chars[index]!, size);
    if (width + w > room) break;
    width += w;
    if (takeHead) head++;
    else tail++;
  }
  return chars.slice(0, head).join("") + ELLIPSIS + chars.slice(chars.length - tail).join("");
}

/**
 * Wraps `text` into at most `maxLines` lines of at most `maxWidth` points,
 * breaking after spaces, slashes, semicolons, commas and hyphens where
 * possible, else inside a word; the last line ends with an ellipsis when text
 * is left over.
 */
export function wrap(text: string, font: FontMetrics, size: number, maxWidth: number, maxLines: number): string[] {
  const limit = maxWidth / FIT_SLACK;
  // Tokens keep their trailing break characters: "Mozilla/" "5.0 " "(X11; " ...
  const tokens = text.match(/[^\s/;,)\-]*(?:[\s/;,)\-]+|$)/g)?.filter((t) => t.length > 0) ?? [];
  const lines: string[] = []; // as built, trailing spaces kept (trimmed on return)
  let line = "";
  let i = 0;
  while (i < tokens.length && lines.length < maxLines) {
    const token = tokens[i]!;
    const candidate = line + token;
    if (font.widthOf(candidate.trimEnd(), size) <= limit) {
      line = candidate;
      i++;
      continue;
    }
    if (line === "") {
      // A single token wider than the line: split it by characters.
      const chars = Array.from(token);
      let part = "";
      let k = 0;
      while (k < chars.length && font.widthOf(part + chars[k]!, size) <= limit) part += chars[k++]!;
      if (part === "") part = chars[k++] ?? ""; // never loop forever on a tiny box
      lines.push(part);
      tokens[i] = chars.slice(k).join("");
      if (tokens[i] === "") i++;
      continue;
    }
    lines.push(line);
    line = "";
  }
  if (line !== "" && lines.length < maxLines) lines.push(line);
  if (i < tokens.length && lines.length > 0) {
    // Text is left over: end the last line with what fits of the rest, and an ellipsis.
    const lastIndex = lines.length - 1;
    lines[lastIndex] = truncate(lines[lastIndex]! + tokens.slice(i).join(""), font, size, maxWidth);
  }
  return lines.length > 0 ? lines.map((l) => l.trimEnd()) : [""];
}
