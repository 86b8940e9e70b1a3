/**
 * Visual order of one text item drawn on a left-to-right line (a small part of the Unicode bidi
 * algorithm, best effort): a span from the first to the last right-to-left letter of a run is
 * drawn right to left, numbers inside it stay left to right. Paragraph-level direction (w:bidi)
 * is layout's job: it places items; this only orders what is inside one item.
 *
 * The text stays in logical order inside each segment: fontkit shapes it (Arabic joining) and
 * draws the glyphs of a segment whose script is right-to-left in reverse, which is the visual order.
 */

export interface Segment {
  text: string;
  rtl: boolean;
}

const RTL = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}]/u;
const STRONG_LTR = /[\p{L}]/u;
const NUMBER = /[\p{Nd}]/u;

export function hasRtl(text: string): boolean {
  return RTL.test(text);
}

/** Segments of `text` in drawing order, left to right. */
export function visualSegments(text: string): Segment[] {
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
        while (m <= end && (kind[m] === "N" || (kind[m] === "-" && kind[m + 1] === "N" && /[.,:/\u066b\u066c]/.test(chars[m]!)))) m++;
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

function pushLtr(out: Segment[], text: string): void {
  const last = out[out.length - 1];
  if (last && !last.rtl) last.text += text;
  else out.push({ text, rtl: false });
}
