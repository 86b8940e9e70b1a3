/**
 * Line fitting: how many of a paragraph's pieces go on a line of a given width. Greedy, as Word and
 * LibreOffice break: the line ends at the last break opportunity that fits; CJK punctuation may
 * hang past the edge; a soft hyphen ends a line only where its hyphen fits too; a word with no
 * opportunity on the line is cut between characters.
 */
import { isEastAsian } from "../../fonts/east-asian";
import { shapeFlags, shapedAdvances, shapedWidth } from "./shaping";
import type { Piece } from "./piece";
import { isLamAlefTail, isMark } from "./script";
import { measureWork } from "../../budgets";
import type { WorkBudget } from "../../../util/work-budget";
import { FIT_EPSILON, TabCursor, type TabContext } from "./tabs";

/**
 * Where a line ends: the index after its last piece; `forced` when a word had to be cut by
 * characters (or an object overflowed) because no break opportunity was on the line, `split` the
 * piece to cut and after how many code units (the caller cuts it once the line's place is final).
 */
export interface LineFit {
  end: number;
  forced: boolean;
  split?: { index: number; at: number };
}

/**
 * Greedy fit of pieces from `start` into [left, right], tabs going to `tabs`' stops; in a table
 * cell (`inTableCell`) CJK punctuation does not hang past the edge.
 */
export function fitLine(
  pieces: Piece[],
  start: number,
  left: number,
  right: number,
  tabs: TabContext,
  inTableCell: boolean | undefined,
  budget: WorkBudget,
): LineFit {
  const cursor = new TabCursor(left, tabs, right);
  let lastBreak = -1;
  let i = start;
  let hasContent = false; // text or objects other than the label
  while (i < pieces.length) {
    const pc = pieces[i]!;
    budget.tick();
    if (pc.kind === "float") {
      i++;
      continue;
    }
    if (pc.kind === "break") {
      // Spaces that run past the right edge push a line break after them onto a line of its own
      // (LibreOffice): the text after the break starts a line lower.
      if (pc.breakKind === "line" && hasContent && cursor.end() > cursor.limit() + FIT_EPSILON)
        return { end: i, forced: false };
      return { end: i + 1, forced: false };
    }
    // A tab whose stop is at or past the right edge starts the next line (LibreOffice).
    if (pc.kind === "tab" && !pc.label && i > start && cursor.tabReachesEdge()) return { end: i, forced: false };
    if ((pc.kind === "text" || pc.kind === "object") && cursor.endWith(pc.width) > cursor.limit() + FIT_EPSILON) {
      // CJK commas and full stops may hang past the right edge rather than take their ideograph
      // down (Word's overflowPunct; LibreOffice does it for runs in a CJK language only, and not
      // in table cells, where the punctuation takes its ideograph to the next line).
      const canEnd = pc.breakAfter || i === pieces.length - 1 || pieces[i + 1]!.kind === "break";
      // Only after an East Asian character, not after a Latin word or digits (LibreOffice, measured),
      // also when the mark is a piece of its own (another face than the text before it).
      const hang =
        pc.kind === "text" && pc.style.cjkTypography && !inTableCell
          ? hangingWidth(pc, hasContent ? pieces[i - 1] : undefined)
          : 0;
      if (hang > 0 && canEnd && cursor.endWith(pc.width - hang) <= right + FIT_EPSILON) {
        return { end: i + 1, forced: false };
      }
      if (lastBreak > start) return { end: lastBreak, forced: false };
      if (pc.kind === "text" && !pc.label) {
        const room = right - cursor.end();
        budget.tick(measureWork(pc.text.length)); // fitChars measures (and joins) the piece
        let k = fitChars(pc, room);
        if (k === 0 && hasContent) return { end: i, forced: true };
        if (k === 0) k = firstCharLength(pc.text);
        // The caller cuts the piece once the line's place is final (exclusions may retry lower).
        return { end: i + 1, forced: true, split: k < pc.text.length ? { index: i, at: k } : undefined };
      }
      if (hasContent) return { end: i, forced: true };
      if (pc.kind === "object") return { end: i + 1, forced: true };
    }
    cursor.add(pc, i);
    if (!pc.label && (pc.kind === "text" || pc.kind === "object")) hasContent = true;
    i++;
    // A soft hyphen is a place to end the line only where the hyphen it then shows fits too.
    if (pc.breakAfter && (!pc.softHyphen || cursor.end() + hyphenWidth(pc) <= cursor.limit() + FIT_EPSILON))
      lastBreak = i;
  }
  return { end: i, forced: false };
}

/** Cuts piece `i` after `k` code units (a word broken by characters). */
export function splitPiece(pieces: Piece[], i: number, k: number, budget: WorkBudget): void {
  const pc = pieces[i]!;
  budget.tick(measureWork(pc.text.length + pieces.length - i)); // both parts measured, the rest moved up
  const make = (text: string, breakAfter: boolean, first: boolean): Piece => {
    let chars = 0;
    for (const _ of text) chars++;
    // Each part is drawn (and measured) on its own, Arabic letters joined within it (and across
    // the piece's own joins to other runs, not across the cut).
    const part: Piece = { ...pc, text, chars, breakAfter };
    if (first) delete part.joinAfter;
    else delete part.joinBefore;
    part.width =
      (shapedWidth(pc.face, text, pc.size, shapeFlags(part)) * pc.style.scale) / 100 + pc.style.charSpacing * chars;
    return part;
  };
  pieces.splice(i, 1, make(pc.text.slice(0, k), true, true), make(pc.text.slice(k), pc.breakAfter, false));
}

/** The line ends at piece `i`'s soft hyphen: the piece shows a hyphen. */
export function showSoftHyphen(pieces: Piece[], i: number): void {
  const pc = pieces[i]!;
  pieces[i] = { ...pc, text: pc.text + "-", width: pc.width + hyphenWidth(pc), chars: pc.chars + 1, softHyphen: false };
}

/** Number of code units of `pc.text` that fit in `room` pt (whole code points, marks kept with their base). */
function fitChars(pc: Piece, room: number): number {
  let w = 0;
  let k = 0;
  const t = pc.text;
  // Letters are measured as shaped in the whole word (Arabic joining forms; a ligature's later
  // letters, with no width of their own, stay with its first).
  const joined = shapedAdvances(pc.face, t, pc.size, shapeFlags(pc));
  while (k < t.length) {
    const cp = t.codePointAt(k)!;
    let len = cp > 0xffff ? 2 : 1;
    // Combining marks (and ZWJ sequences) stay with their base character.
    while (k + len < t.length && (isMark(t.charCodeAt(k + len)) || (joined && isLamAlefTail(t, k + len)))) len++;
    let glyphs = 0;
    if (joined) for (let j = k; j < k + len; j++) glyphs += joined[j]!;
    const cw =
      ((joined ? glyphs : pc.face.widthOf(t.slice(k, k + len), pc.size)) * pc.style.scale) / 100 + pc.style.charSpacing;
    if (w + cw > room + FIT_EPSILON) break;
    w += cw;
    k += len;
  }
  return k;
}

function firstCharLength(t: string): number {
  let len = t.codePointAt(0)! > 0xffff ? 2 : 1;
  while (len < t.length && isMark(t.charCodeAt(len))) len++;
  return len;
}

/**
 * What LibreOffice lets hang (measured, Chinese, with no room at all left on the line): ideographic
 * comma and full stop, full-width comma, full stop, semicolon, colon, question and exclamation
 * marks, and ASCII , . : ; ? ! — not closing brackets such as ） ) 」》.
 */
const HANGING = /[\u3001\u3002\uff0c\uff0e\uff1b\uff1a\uff1f\uff01,.:;?!]$/u;

/**
 * Width of the punctuation that may hang at the end of a text piece: a mark of `HANGING` right after
 * an East Asian character (in the piece, or ending `before`, of the same run, when the mark is the
 * whole piece); 0 when none.
 */
function hangingWidth(pc: Piece, before: Piece | undefined): number {
  const m = HANGING.exec(pc.text);
  if (!m) return 0;
  const head = pc.text.slice(0, -m[0].length);
  // A mark alone in its piece hangs after text of its own run only (LibreOffice hangs within a portion).
  const ref = head || (before?.kind === "text" && before.style === pc.style ? before.text : "");
  if (!ref) return 0;
  const last = ref.codePointAt(ref.length - 1)!;
  if (!isEastAsian(last >= 0xdc00 && last <= 0xdfff ? ref.codePointAt(ref.length - 2)! : last)) return 0;
  return (pc.face.widthOf(m[0], pc.size) * pc.style.scale) / 100 + pc.style.charSpacing * m[0].length;
}

/** Width of the hyphen a soft hyphen shows at a line end, in the piece's face and size. */
function hyphenWidth(pc: Piece): number {
  return (pc.face.widthOf("-", pc.size) * pc.style.scale) / 100 + pc.style.charSpacing;
}
