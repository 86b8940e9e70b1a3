/**
 * Arabic joining for measuring: which contextual form (isolated, final, initial, medial) each
 * letter takes (Unicode joining types, ArabicShaping.txt, for the Arabic and Persian letters), and
 * the width of a word drawn with those forms. Paint draws Arabic through the font's own shaping
 * (GSUB init/medi/fina, rlig), whose joined forms are narrower than the isolated letters the cmap
 * gives: measuring the isolated letters made lines break early (Persian and Arabic documents ran
 * about 30 % more pages than LibreOffice). The width here takes each form's glyph through the
 * font's Arabic presentation-form code points (U+FB50..FDFF, U+FE70..FEFF), which the fonts we
 * ship map to the same glyphs their GSUB substitutes.
 */
import { LIMITS } from "../../../limits";
import { LoadedFace } from "../../fonts/font-face";
import type { FontFace } from "../../fonts/types";

type Joining = "D" | "R" | "U" | "T" | "C";

/** Base letters U+0621..064A in order with the number of forms they have in U+FE80..FEF4. */
const FE_LETTERS: [number, number][] = [
  [0x621, 1], [0x622, 2], [0x623, 2], [0x624, 2], [0x625, 2], [0x626, 4], [0x627, 2], [0x628, 4], [0x629, 2], [0x62a, 4], [0x62b, 4],
  [0x62c, 4], [0x62d, 4], [0x62e, 4], [0x62f, 2], [0x630, 2], [0x631, 2], [0x632, 2], [0x633, 4], [0x634, 4], [0x635, 4], [0x636, 4],
  [0x637, 4], [0x638, 4], [0x639, 4], [0x63a, 4], [0x641, 4], [0x642, 4], [0x643, 4], [0x644, 4], [0x645, 4], [0x646, 4], [0x647, 4],
  [0x648, 2], [0x649, 2], [0x64a, 4],
];

/** Letters outside U+0621..064A: first presentation form (isolated, then final, initial, medial). */
const FB_LETTERS: [number, number, number][] = [
  [0x671, 0xfb50, 2], [0x67e, 0xfb56, 4], [0x679, 0xfb66, 4], [0x686, 0xfb7a, 4], [0x698, 0xfb8a, 2], [0x6a9, 0xfb8e, 4], [0x6af, 0xfb92, 4],
  [0x6ba, 0xfb9e, 2], [0x6c0, 0xfba4, 2], [0x6c1, 0xfba6, 4], [0x6be, 0xfbaa, 4], [0x6d2, 0xfbae, 2], [0x6cc, 0xfbfc, 4], [0x6a4, 0xfb6a, 4],
  [0x6a6, 0xfb6e, 4], [0x688, 0xfb88, 2], [0x691, 0xfb8c, 2],
];

/** Code point → [first presentation form, number of forms]. */
const FORMS = new Map<number, [number, number]>();
{
  let next = 0xfe80;
  for (const [cp, n] of FE_LETTERS) {
    FORMS.set(cp, [next, n]);
    next += n;
  }
  for (const [cp, first, n] of FB_LETTERS) FORMS.set(cp, [first, n]);
}

/** Lam + alef ligatures (isolated; the final form is the next code point). */
const LAM_ALEF = new Map<number, number>([[0x622, 0xfef5], [0x623, 0xfef7], [0x625, 0xfef9], [0x627, 0xfefb]]);

const RIGHT_JOINING = new Set([
  0x622, 0x623, 0x624, 0x625, 0x627, 0x629, 0x62f, 0x630, 0x631, 0x632, 0x648, 0x671, 0x672, 0x673, 0x675, 0x676, 0x677,
  0x6c0, 0x6c3, 0x6c4, 0x6c5, 0x6c6, 0x6c7, 0x6c8, 0x6c9, 0x6ca, 0x6cb, 0x6cd, 0x6cf, 0x6d2, 0x6d3, 0x6d5, 0x6ee, 0x6ef, 0x8aa, 0x8ab, 0x8ac,
]);

export function joiningType(cp: number): Joining {
  if (cp === 0x640 || cp === 0x200d) return "C";
  if ((cp >= 0x610 && cp <= 0x61a) || (cp >= 0x64b && cp <= 0x65f) || cp === 0x670 || (cp >= 0x6d6 && cp <= 0x6dc) || (cp >= 0x6df && cp <= 0x6e4) || cp === 0x6e7 || cp === 0x6e8 || (cp >= 0x6ea && cp <= 0x6ed)) return "T";
  if (RIGHT_JOINING.has(cp) || (cp >= 0x688 && cp <= 0x699)) return "R";
  if (cp === 0x621 || cp === 0x674) return "U";
  if ((cp >= 0x626 && cp <= 0x64a) || (cp >= 0x66e && cp <= 0x6d3) || (cp >= 0x6fa && cp <= 0x6ff) || (cp >= 0x8a0 && cp <= 0x8c9)) return "D";
  return "U";
}

/** 0 isolated, 1 final, 2 initial, 3 medial, for each code point of `cps` (non-letters get 0). */
export function joiningForms(cps: readonly number[]): number[] {
  const types = cps.map(joiningType);
  const forms = new Array<number>(cps.length).fill(0);
  const joinsForward = (t: Joining) => t === "D" || t === "C";
  const joinsBackward = (t: Joining) => t === "D" || t === "R" || t === "C";
  for (let i = 0; i < cps.length; i++) {
    const t = types[i]!;
    if (t === "T" || t === "U") continue;
    let p = i - 1;
    while (p >= 0 && types[p] === "T") p--;
    let q = i + 1;
    while (q < cps.length && types[q] === "T") q++;
    const prev = p >= 0 && joinsForward(types[p]!) && joinsBackward(t);
    const next = q < cps.length && joinsForward(t) && joinsBackward(types[q]!);
    forms[i] = prev && next ? 3 : prev ? 1 : next ? 2 : 0;
  }
  return forms;
}

/** Whether `text` has letters whose width depends on joining. */
export function needsJoining(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x620 && c <= 0x6ff) return true;
  }
  return false;
}

/**
 * Advance of `text` at `size` with Arabic letters in their joined forms and lam-alef ligated, as
 * the font draws them when a form's presentation code point is in its cmap (otherwise the
 * letter's own advance).
 */
export function joinedWidth(face: FontFace, text: string, size: number): number {
  text = fromPresentationForms(text);
  if (!needsJoining(text)) return face.widthOf(text, size);
  // Paint asks again for every word it draws: the drawn forms are kept per face (bounded). The
  // width is measured at the size itself, as advances are rounded at that size (font-face.ts).
  let cache = joinedCache.get(face);
  if (!cache) joinedCache.set(face, (cache = new Map()));
  let drawn = cache.get(text);
  if (drawn === undefined) {
    drawn = joinedDrawnText(face, text);
    if (cache.size >= LIMITS.paragraph.widthCacheEntries) cache.clear();
    cache.set(text, drawn);
  }
  return face.widthOf(drawn, size);
}

const joinedCache = new WeakMap<FontFace, Map<string, string>>();

function joinedDrawnText(face: FontFace, text: string): string {
  return String.fromCodePoint(...joinedGlyphs(face, text).map((g) => g.cp).filter((cp) => !isDefaultIgnorable(cp)));
}

/**
 * The code points drawn for `text` (joined forms, lam-alef ligated), each with the code unit index
 * of the (first) character it draws.
 */
function joinedGlyphs(face: FontFace, text: string): { cp: number; at: number }[] {
  warmJoinedForms(face);
  // Joiners and direction marks steer shaping but draw nothing (paint drops them).
  const cps: number[] = [];
  const ats: number[] = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    if (!isDefaultIgnorable(cp) || cp === 0x200c) {
      cps.push(cp);
      ats.push(i);
    }
    i += cp > 0xffff ? 2 : 1;
  }
  const forms = joiningForms(cps);
  const drawn: { cp: number; at: number }[] = [];
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i]!;
    const form = forms[i]!;
    // Lam followed by an alef: one ligature glyph (final when the lam joins to its right).
    if (cp === 0x644 && LAM_ALEF.has(cps[i + 1] ?? -1)) {
      const lig = LAM_ALEF.get(cps[i + 1]!)! + (form === 1 || form === 3 ? 1 : 0);
      if (face.covers(lig)) {
        drawn.push({ cp: lig, at: ats[i]! });
        i++;
        continue;
      }
    }
    const f = FORMS.get(cp);
    if (f) {
      // Two-form (right-joining) letters only have isolated and final.
      const index = f[1] === 4 ? form : f[1] === 2 ? (form === 1 || form === 3 ? 1 : 0) : 0;
      const pf = f[0] + index;
      drawn.push({ cp: face.covers(pf) ? pf : cp, at: ats[i]! });
    } else drawn.push({ cp, at: ats[i]! });
  }
  return drawn;
}

/**
 * Advance of each code unit of `text` as drawn in the whole word (joined forms; a lam-alef
 * ligature's width on its lam, 0 on its alef; 0 on the second half of a surrogate pair), or
 * undefined when the text needs no joining. A word broken by characters is cut by these widths, as
 * LibreOffice cuts the shaped word (measured: "بنغلادي|ش" in a narrow cell, where isolated forms
 * would fit only "بنغ").
 */
export function joinedAdvances(face: FontFace, text: string, size: number): number[] | undefined {
  if (!needsJoining(text) || fromPresentationForms(text) !== text) return undefined;
  const out = new Array<number>(text.length).fill(0);
  for (const g of joinedGlyphs(face, text)) if (!isDefaultIgnorable(g.cp)) out[g.at] = face.widthOf(String.fromCodePoint(g.cp), size);
  return out;
}

export function isDefaultIgnorable(cp: number): boolean {
  return cp === 0x61c || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x206f) || cp === 0xfeff;
}

const PRESENTATION_FORM = /[\ufb50-\ufdff\ufe70-\ufefe]+/g;

/**
 * Arabic presentation forms typed into a document (U+FB50..FDFF, U+FE70..FEFE) as their base
 * letters, which the font shapes like any other: drawn as they were, one glyph's text in the PDF
 * became the presentation form for every later use of that glyph, and copied text read "ﮐﻠﯿﺪ"
 * where LibreOffice gives "کلید".
 */
export function fromPresentationForms(text: string): string {
  return text.replace(PRESENTATION_FORM, (m) => m.normalize("NFKC"));
}

const warmed = new WeakSet<FontFace>();

/**
 * fontkit keeps one glyph object per glyph id with the code points it was first made for, and
 * paint writes those code points into the PDF's ToUnicode map. Measuring a joined form through its
 * presentation code point would make that glyph "U+FB8F" for good, and copied text would read
 * presentation forms. So, once per face, every joined form is first made by fontkit's own shaping
 * (which records the base letter): a letter alone, after a tatweel, before one and between two.
 */
function warmJoinedForms(face: FontFace): void {
  if (warmed.has(face) || !(face instanceof LoadedFace)) return;
  warmed.add(face);
  const t = "\u0640";
  const words: string[] = [];
  for (const [cp, [, n]] of FORMS) {
    const c = String.fromCodePoint(cp);
    words.push(c, t + c);
    if (n === 4) words.push(c + t, t + c + t);
  }
  for (const alef of LAM_ALEF.keys()) words.push("\u0644" + String.fromCodePoint(alef), t + "\u0644" + String.fromCodePoint(alef));
  try {
    face.font.layout(words.join(" "), { liga: false, clig: false, dlig: false } as unknown as string[]);
  } catch {
    // A font whose tables fontkit cannot shape: its glyphs keep whatever code points they get.
  }
}
