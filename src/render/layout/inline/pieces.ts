/**
 * Collect: a paragraph's inlines (numbering label first) cut into measured pieces (piece.ts), with
 * their break opportunities (line-break.ts), bidi levels (bidi.ts) and the spacing LibreOffice adds
 * between them (East Asian autospace, Arabic words joined across runs). A run's text is cut by
 * text-pieces.ts.
 */
import { LIMITS } from "../../../limits";
import { measureWork, PARAGRAPH_WORK, renderLimit } from "../../budgets";
import type { FontFace } from "../../fonts/types";
import { isEastAsian } from "../../fonts/east-asian";
import type { Inline, Paragraph, RunStyle } from "../../model/types";
import { mathObject } from "../objects/math";
import type { LayoutContext, ObjectInline } from "../types";
import { joiningType } from "./arabic-joining";
import { shapeFlags, shapedWidth } from "./shaping";
import { resolveLevels } from "./bidi";
import { applyChineseBreaks, lineBreakOpportunities } from "./line-break";
import type { Atom, Piece } from "./piece";
import {
  baseOf,
  bidiStandIn,
  complexByLevel,
  eastAsianContext,
  latinRuns,
  textPieces,
  weakAfterAsian,
} from "./text-pieces";

/** Cuts a paragraph (and its numbering label, first) into pieces. */
export function buildPieces(p: Paragraph, ctx: LayoutContext): Piece[] {
  const { atoms, text, softHyphens } = collectAtoms(p, ctx);
  if (text.length > LIMITS.paragraph.maxChars)
    throw renderLimit(`has a paragraph of more than ${LIMITS.paragraph.maxChars} characters`);
  // Building the pieces reads each character a few times (breaks, bidi levels, scripts, widths).
  ctx.budget.tick(PARAGRAPH_WORK + atoms.length + measureWork(text.length));
  const breaks = breakOpportunities(text, atoms, softHyphens);
  const levels = resolveLevels(text, p.style.bidi ? 1 : 0);
  const complex = complexByLevel(text, levels);
  const latin = latinRuns(text, levels);
  const asianContext = eastAsianContext(text);
  const asianWeak = weakAfterAsian(text);
  const pieces: Piece[] = [];
  for (const atom of atoms) {
    const inline = atom.inline;
    const end = atom.start + atom.text.length;
    // Each run is a text portion of its own for LibreOffice's line breaking (line-fit.ts).
    const first = pieces.length;
    const face = ctx.fonts.face({ family: atom.style.font, bold: atom.style.bold, italic: atom.style.italic });
    const base = baseOf(atom.style, face);
    const level = levels[atom.start] ?? 0;
    const common = {
      style: atom.style,
      link: atom.link,
      face,
      metrics: face,
      size: base.size,
      rise: base.rise,
      breakAfter: breaks[end] !== 0,
      chars: 1,
      rtl: level % 2 === 1,
      level,
    };
    if (inline?.type === "tab" || inline?.type === "break") {
      // A tab (its leader) and a line break in a bidi paragraph take a stand-in's script face too.
      const script = p.style.bidi ? bidiStandIn(atom.style.font, atom.style, face, ctx.fonts) : undefined;
      if (script) common.face = common.metrics = script;
    }
    if (inline?.type === "tab") pieces.push({ ...common, kind: "tab", text: "\t", width: 0 });
    else if (inline?.type === "break")
      pieces.push({ ...common, kind: "break", text: "", width: 0, breakKind: inline.kind });
    else if (inline?.type === "checkbox") {
      const object = checkboxObject(inline, face, base.size);
      pieces.push({ ...common, kind: "object", text: "", width: object.width, object });
    } else if (inline?.type === "image" || inline?.type === "box") {
      if (inline.anchor)
        pieces.push({ ...common, kind: "float", text: "", width: 0, object: inline, breakAfter: false });
      else {
        const { object, math } = mathObject(inline, ctx.fonts);
        pieces.push({
          ...common,
          kind: "object",
          text: "",
          width: object.width,
          object,
          label: atom.label,
          ...(math ? { math } : {}),
        });
      }
    } else if (atom.text)
      textPieces(atom, breaks, levels, complex, latin, asianContext, asianWeak, ctx.fonts, pieces, p.style.bidi);
    if (pieces.length > first) pieces[first]!.portionStart = true;
  }
  spaceAsianFromWestern(pieces);
  joinAcrossRuns(pieces);
  return pieces;
}

/**
 * The paragraph's text, inline by inline (the numbering label first), as atoms at their offsets in
 * it, and where soft hyphens were (the text drops them).
 */
function collectAtoms(p: Paragraph, ctx: LayoutContext): { atoms: Atom[]; text: string; softHyphens: number[] } {
  const atoms: Atom[] = [];
  let text = "";
  // Offsets in `text` where a soft hyphen was (displayText drops the character itself).
  const softHyphens: number[] = [];
  const push = (a: Omit<Atom, "start">) => {
    atoms.push({ ...a, start: text.length });
    text += a.text;
  };
  const num = p.numbering;
  if (num && num.image && !num.style.hidden) {
    // A picture bullet: a square as tall as the paragraph's text (its mark's size, not the level's
    // symbol size), on the baseline.
    const size = Math.min(num.style.size, p.markStyle.size);
    push({
      inline: { type: "image", image: num.image, width: size, height: size, style: num.style },
      style: num.style,
      text: "\uFFFC",
      label: true,
    });
  } else if (num && num.text && !num.style.hidden) {
    const shown = displayText(num.text, num.style);
    push({ inline: null, style: num.style, text: shown, label: true, ...typedAs(shown, num.typed, num.style) });
  }
  for (const inline of p.inlines) {
    if (inline.style.hidden) continue;
    switch (inline.type) {
      case "text":
        if (inline.text.includes("\u00AD"))
          for (const at of softHyphenOffsets(inline.text)) softHyphens.push(text.length + at);
        {
          const shown = displayText(inline.text, inline.style);
          push({
            inline,
            style: inline.style,
            text: shown,
            link: inline.link,
            ...typedAs(shown, inline.typed, inline.style),
          });
          break;
        }
      case "field": {
        const value = ctx.fieldValue(inline.field, inline.format) ?? inline.fallback;
        push({ inline, style: inline.style, text: displayText(value, inline.style) });
        break;
      }
      case "noteRef":
        push({
          inline,
          style: inline.style,
          text: displayText(inline.label, inline.style),
          ...(inline.own ? {} : { noteRef: `${inline.kind}:${inline.id}` }),
          ...(inline.kind === "footnote" ? { noteLabelOf: `footnote:${inline.id}` } : {}),
        });
        break;
      case "tab":
        push({ inline, style: inline.style, text: "\t", link: inline.link });
        break;
      case "break":
        push({ inline, style: inline.style, text: "\n" });
        break;
      case "checkbox":
        push({ inline, style: inline.style, text: "\uFFFC" });
        break;
      case "image":
      case "box":
        // Floats take no room in the text; inline objects are break opportunities on both sides.
        push({
          inline,
          style: inline.style,
          text: inline.anchor ? "" : "\uFFFC",
          link: inline.type === "image" ? inline.link : undefined,
        });
        break;
    }
  }

  return { atoms, text, softHyphens };
}

/** Break opportunities of the paragraph's text: UAX #14 (line-break.ts), Chinese rules, soft hyphens between letters (kind 2). */
function breakOpportunities(text: string, atoms: Atom[], softHyphens: number[]): Uint8Array {
  // The numbering label is not part of the paragraph's text for LibreOffice's break iterator.
  const breaks = lineBreakOpportunities(text, atoms.find((a) => !a.label)?.start ?? 0);
  for (const atom of atoms) {
    const lang = atom.style.cjkTypography;
    if ((lang === "zh" || lang === "zh-Hant") && atom.text)
      applyChineseBreaks(text, breaks, atom.start, atom.start + atom.text.length, lang);
  }
  // A soft hyphen between letters is a break opportunity of its own kind (2).
  for (const at of softHyphens)
    if (at > 0 && at < text.length && LETTER.test(text[at - 1]!) && LETTER.test(text[at]!)) breaks[at] = 2;
  return breaks;
}

/**
 * A right-to-left word cut into runs (a colour, a w:hint, a bookmark in the middle of "عقیده")
 * keeps its letters joined across the cut, as LibreOffice shapes each portion with its context:
 * each side is measured (and drawn, paint's tatweel context) in the form it takes joined.
 */
function joinAcrossRuns(pieces: Piece[]): void {
  for (let i = 0; i + 1 < pieces.length; i++) {
    const a = pieces[i]!;
    const b = pieces[i + 1]!;
    if (
      a.kind !== "text" ||
      b.kind !== "text" ||
      !a.rtl ||
      !b.rtl ||
      a.breakAfter ||
      a.level !== b.level ||
      a.label ||
      b.label
    )
      continue;
    if (a.style.smallCaps || b.style.smallCaps || !a.face.covers(TATWEEL) || !b.face.covers(TATWEEL)) continue;
    let k = a.text.length - 1;
    while (k > 0 && joiningType(a.text.charCodeAt(k)) === "T") k--;
    const last = joiningType(a.text.charCodeAt(k));
    const first = joiningType(b.text.charCodeAt(0));
    if ((last !== "D" && last !== "C") || (first !== "D" && first !== "R" && first !== "C")) continue;
    a.joinAfter = true;
    b.joinBefore = true;
    a.width = joinedPieceWidth(a);
    b.width = joinedPieceWidth(b);
  }
}

function joinedPieceWidth(pc: Piece): number {
  return (
    (shapedWidth(pc.face, pc.text, pc.size, shapeFlags(pc)) * pc.style.scale) / 100 + pc.style.charSpacing * pc.chars
  );
}

const TATWEEL = 0x640;

/**
 * LibreOffice's autospace (measured, with or without w:autoSpaceDE/DN): where an ideograph, kana
 * or Hangul letter meets a Latin, Greek or Cyrillic letter or a digit, one fifth of the East Asian
 * text's size is added between them. Not next to punctuation or spaces.
 */
function spaceAsianFromWestern(pieces: Piece[]): void {
  for (let i = 0; i + 1 < pieces.length; i++) {
    const a = pieces[i]!;
    const b = pieces[i + 1]!;
    if (a.kind !== "text" || b.kind !== "text" || !a.text || !b.text || a.label) continue;
    const lastUnit = a.text.charCodeAt(a.text.length - 1);
    if (lastUnit < 0x1100 && b.text.charCodeAt(0) < 0x1100) continue; // no East Asian text here
    const last = a.text.codePointAt(
      a.text.length - (lastUnit >= 0xdc00 && lastUnit <= 0xdfff && a.text.length > 1 ? 2 : 1),
    )!;
    const first = b.text.codePointAt(0)!;
    const asianFirst = isAsianLetter(last) && isWesternLetterOrDigit(first);
    if (asianFirst || (isWesternLetterOrDigit(last) && isAsianLetter(first)))
      a.width += (asianFirst ? a.size : b.size) * AUTOSPACE_EM;
  }
}

const AUTOSPACE_EM = 0.2;
const LETTER = /\p{L}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{Nd}]/u;

function isAsianLetter(cp: number): boolean {
  return isEastAsian(cp) && LETTER.test(String.fromCodePoint(cp));
}

function isWesternLetterOrDigit(cp: number): boolean {
  return (cp < 0x0590 || (cp >= 0x1e00 && cp <= 0x1fff)) && LETTER_OR_DIGIT.test(String.fromCodePoint(cp));
}

/**
 * A check box form field as LibreOffice draws it (measured): a square as wide as the run's line is
 * tall, outlined. Here it stands on the baseline, as tall as the ascent, so the line keeps its height.
 */
function checkboxObject(inline: Extract<Inline, { type: "checkbox" }>, face: FontFace, size: number): ObjectInline {
  const border = { style: "single", width: CHECKBOX_OUTLINE, color: null, space: 0 };
  return {
    type: "box",
    blocks: [],
    width: face.lineHeight(size),
    height: face.ascent(size),
    style: inline.style,
    border,
  };
}
/** Outline of a drawn check box, pt. */
const CHECKBOX_OUTLINE = 0.5;

/** Where the soft hyphens of `raw` fall in its display text (the characters displayText keeps before each). */
function softHyphenOffsets(raw: string): number[] {
  const out: number[] = [];
  let kept = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0xad) out.push(kept);
    else if (c === 0x09 || c >= 0x20) kept++;
  }
  return out;
}

/** The atom's `typed` for characters drawn as `shown`: kept only where it still matches it character by character. */
function typedAs(shown: string, typed: string | undefined, style: RunStyle): { typed?: string } {
  if (typed === undefined) return {};
  const t = displayText(typed, style);
  return t.length === shown.length && t !== shown ? { typed: t } : {};
}

function displayText(text: string, style: RunStyle): string {
  // Soft hyphens are not drawn (we do not hyphenate); control characters other than tab are dropped.
  const clean = text.replace(/[\u00AD\u0000-\u0008\u000A-\u001F]/g, "");
  return style.caps ? clean.toUpperCase() : clean;
}
