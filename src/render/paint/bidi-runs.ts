/**
 * Visual order inside one text item. Layout (layout/inline/bidi.ts) cuts lines into items of one
 * embedding level and marks those at an odd level `rtl`: such an item is drawn right to left as a
 * whole, its punctuation mirrored ("(" drawn as ")") and placed by the reversal, its letters in
 * segments HarfBuzz shapes (Arabic joining) and reverses. An item not marked (text from elsewhere)
 * falls back to a best-effort split: a span from the first to the last right-to-left letter is
 * drawn right to left, numbers inside it stay left to right.
 *
 * The text stays in logical order inside each segment: HarfBuzz shapes it (Arabic joining) and
 * draws the glyphs of a segment whose script is right-to-left in reverse, which is the visual order.
 */
import { fromPresentationForms, isDefaultIgnorable } from "../layout/inline/arabic-joining";
import { bidiClass, mirrorChar } from "../layout/inline/bidi";

export interface Segment {
  text: string;
  rtl: boolean;
  /** The characters typed, where `text` draws others (brackets mirrored in right-to-left text): for copy and search. */
  typed?: string;
  /** A zero-width non-joiner: drawn as nothing, with no advance, but kept in the copied text. */
  zeroWidth?: true;
}

const RTL =
  /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}]/u;
const STRONG_LTR = /[\p{L}]/u;
const NUMBER = /[\p{Nd}]/u;

export function hasRtl(text: string): boolean {
  return RTL.test(text);
}

/** Segments of `text` in drawing order, left to right; `rtl`: the item is at a right-to-left level. */
export function visualSegments(text: string, rtl = false): Segment[] {
  if (rtl) return rightToLeftSegments(text);
  const chars = [...text];
  if (!chars.some((c) => RTL.test(c))) return [{ text, rtl: false }];
  const kind = chars.map((c) => (RTL.test(c) ? "R" : STRONG_LTR.test(c) ? "L" : NUMBER.test(c) ? "N" : "-"));

  const out: Segment[] = [];
  let i = 0;
  while (i < chars.length) {
    if (kind[i] !== "R") {
      // Left-to-right stretch up to the next RTL letter.
      let j = i;
      while (j < chars.length && kind[j] !== "R") j++;
      pushLtr(out, chars.slice(i, j).join(""));
      i = j;
      continue;
    }
    // RTL run: up to the last RTL letter before the next strong LTR letter (or the end).
    let end = i;
    for (let j = i; j < chars.length && kind[j] !== "L"; j++) if (kind[j] === "R") end = j;
    // Inside the run, digit groups (with the separators between digits) stay left to right; the
    // pieces are drawn in reverse order.
    const pieces: Segment[] = [];
    let k = i;
    while (k <= end) {
      let m = k;
      if (kind[k] === "N") {
        while (
          m <= end &&
          (kind[m] === "N" || (kind[m] === "-" && kind[m + 1] === "N" && /[.,:/\u066b\u066c]/.test(chars[m]!)))
        )
          m++;
        pieces.push({ text: chars.slice(k, m).join(""), rtl: false });
      } else {
        while (m <= end && kind[m] !== "N") m++;
        pieces.push({ text: chars.slice(k, m).join(""), rtl: true });
      }
      k = m;
    }
    out.push(...pieces.reverse());
    i = end + 1;
  }
  return out;
}

function pushLtr(out: Segment[], text: string, typed = text): void {
  const last = out[out.length - 1];
  if (last && !last.rtl && !last.zeroWidth) {
    if (last.typed !== undefined || typed !== text) last.typed = (last.typed ?? last.text) + typed;
    last.text += text;
  } else out.push(typed !== text ? { text, rtl: false, typed } : { text, rtl: false });
}

/**
 * An item at an odd level, in drawing order: letters (with their marks, joiners and tatweel) are
 * right-to-left segments for shaping; other characters are reversed one by one and mirrored;
 * digit groups keep their own order.
 */
function rightToLeftSegments(text: string): Segment[] {
  const groups: Segment[] = [];
  const chars = [...fromPresentationForms(text)];
  for (let i = 0; i < chars.length;) {
    const cp = chars[i]!.codePointAt(0)!;
    const c = bidiClass(cp);
    let j = i + 1;
    // Joiners and direction marks draw nothing and are not text (LibreOffice extracts none):
    // dropped, ending the shaping segment, so a zero-width non-joiner keeps the letters on both
    // sides apart, as LibreOffice keeps them.
    if (isDefaultIgnorable(cp)) {
      // A zero-width non-joiner is part of Persian words ("مقدمه‌ی"): LibreOffice's text keeps it.
      if (cp === 0x200c) groups.push({ text: "\u200c", rtl: false, zeroWidth: true });
      i = j;
      continue;
    }
    if (c === "EN" || c === "AN") {
      while (j < chars.length && isNumberPart(chars, j)) j++;
      groups.push({ text: chars.slice(i, j).join(""), rtl: false });
    } else if (c === "R" || c === "AL" || c === "NSM" || c === "BN" || c === "L") {
      while (
        j < chars.length &&
        ["R", "AL", "NSM", "BN", "L"].includes(bidiClass(chars[j]!.codePointAt(0)!)) &&
        !isDefaultIgnorable(chars[j]!.codePointAt(0)!)
      )
        j++;
      groups.push({ text: chars.slice(i, j).join(""), rtl: true });
    } else groups.push({ text: mirrorChar(chars[i]!), rtl: false, typed: chars[i]! });
    i = j;
  }
  const out: Segment[] = [];
  for (const g of groups.reverse()) {
    if (g.rtl || g.zeroWidth) out.push(g);
    else pushLtr(out, g.text, g.typed);
  }
  return out;
}

function isNumberPart(chars: string[], j: number): boolean {
  const c = bidiClass(chars[j]!.codePointAt(0)!);
  if (c === "EN" || c === "AN") return true;
  const next = chars[j + 1] ? bidiClass(chars[j + 1]!.codePointAt(0)!) : null;
  return (c === "CS" || c === "ES") && (next === "EN" || next === "AN");
}
