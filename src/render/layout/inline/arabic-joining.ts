/**
 * Arabic joining types (Unicode ArabicShaping.txt, for the Arabic and Persian letters): which letters
 * join which, for the rules HarfBuzz does not apply for us (kashida places, joins across run
 * boundaries). The joining forms themselves, lam-alef and mark positioning are HarfBuzz's
 * (fonts/font-face.ts `shaped`), as in LibreOffice.
 */

type Joining = "D" | "R" | "U" | "T" | "C";

const RIGHT_JOINING = new Set([
  0x622, 0x623, 0x624, 0x625, 0x627, 0x629, 0x62f, 0x630, 0x631, 0x632, 0x648, 0x671, 0x672, 0x673, 0x675, 0x676, 0x677,
  0x6c0, 0x6c3, 0x6c4, 0x6c5, 0x6c6, 0x6c7, 0x6c8, 0x6c9, 0x6ca, 0x6cb, 0x6cd, 0x6cf, 0x6d2, 0x6d3, 0x6d5, 0x6ee, 0x6ef,
  0x8aa, 0x8ab, 0x8ac,
]);

export function joiningType(cp: number): Joining {
  if (cp === 0x640 || cp === 0x200d) return "C";
  if (
    (cp >= 0x610 && cp <= 0x61a) ||
    (cp >= 0x64b && cp <= 0x65f) ||
    cp === 0x670 ||
    (cp >= 0x6d6 && cp <= 0x6dc) ||
    (cp >= 0x6df && cp <= 0x6e4) ||
    cp === 0x6e7 ||
    cp === 0x6e8 ||
    (cp >= 0x6ea && cp <= 0x6ed)
  )
    return "T";
  if (RIGHT_JOINING.has(cp) || (cp >= 0x688 && cp <= 0x699)) return "R";
  if (cp === 0x621 || cp === 0x674) return "U";
  if (
    (cp >= 0x626 && cp <= 0x64a) ||
    (cp >= 0x66e && cp <= 0x6d3) ||
    (cp >= 0x6fa && cp <= 0x6ff) ||
    (cp >= 0x8a0 && cp <= 0x8c9)
  )
    return "D";
  return "U";
}

/** Whether `text` has letters whose width depends on joining. */
export function needsJoining(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x620 && c <= 0x6ff) return true;
  }
  return false;
}

export function isDefaultIgnorable(cp: number): boolean {
  return (
    cp === 0x61c ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x206f) ||
    cp === 0xfeff
  );
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
