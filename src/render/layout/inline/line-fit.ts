/**
 * Line fitting: how many of a paragraph's pieces go on a line of a given width. Greedy, as Word and
 * LibreOffice break: the line ends at the last break opportunity that fits (around a solidus as
 * LibreOffice's break iterator decides, libreOfficeBreak); CJK punctuation may hang past the
 * edge; a soft hyphen ends a line only where its hyphen fits too; a word with no opportunity on
 * the line is cut between characters.
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
  // The line's opportunities so far, for LibreOffice's choice at a solidus (libreOfficeBreak).
  const opportunities: number[] = [];
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
      // East Asian text of a run in an East Asian language goes to LibreOffice's CJK break
      // iterator, which takes the last opportunity as it is (measured: 元/|月 at the edge in
      // zh-CN, 费用|元/日 in en-US; Latin text of a zh-CN run as in en-US).
      const brk =
        lastBreak <= start
          ? -1
          : pc.kind === "text" && pc.style.cjkTypography && isEastAsian(pc.text.codePointAt(0)!)
            ? lastBreak
            : libreOfficeBreak(pieces, i, start, opportunities, () => {
                budget.tick(measureWork(pc.text.length));
                return fitChars(pc, right - cursor.end());
              });
      if (brk > start) return { end: brk, forced: false };
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
    if (pc.breakAfter && (!pc.softHyphen || cursor.end() + hyphenWidth(pc) <= cursor.limit() + FIT_EPSILON)) {
      lastBreak = i;
      opportunities.push(i);
    }
  }
  return { end: i, forced: false };
}

/**
 * Where LibreOffice ends a line whose piece `i` overflows, given the line's opportunities (piece
 * indices a line may end before, ascending): the last one, except around a solidus
 * (BreakIterator_Unicode::getLineBreak, i#17155): an opportunity after a solidus is not taken
 * when the character after it is the first that does not fit (the one before is), and one
 * LibreOffice pulls back (`pulledBack` after a piece, `pulledBackAt` inside one, before the
 * character that does not fit) moves to the last opportunity after whitespace. A break that lands
 * before the overflowing portion (a run's text) is looked for again with the last character of
 * the portion before as the first that does not fit, as Writer's underflow does (measured: a path pulled back
 * past several runs breaks at a hyphen before the run ending in the solidus, a URL run after a
 * space run still moves down whole). -1: none on the line (the word is chopped at the edge).
 */
function libreOfficeBreak(
  pieces: Piece[],
  i: number,
  start: number,
  opportunities: number[],
  overflowAt: () => number,
): number {
  const afterSolidus = (b: number) => pieces[b - 1]!.text.endsWith("/");
  const lastBefore = (limit: number) => {
    for (let k = opportunities.length - 1; k >= 0; k--) if (opportunities[k]! < limit) return opportunities[k]!;
    return -1;
  };
  const isWhitespace = (pc: Piece) => pc.kind === "space" || pc.kind === "tab";
  // getLineBreak with the first character that does not fit at code unit `c` of piece `at`.
  const lineBreak = (at: number, c: number): number => {
    if (c === 0 && opportunities.includes(at) && !afterSolidus(at)) return at;
    // The last opportunity before that character (one inside the piece after a solidus comes later).
    const inside = !!pieces[at]!.pulledBackAt?.some((p) => p < c);
    const b = inside ? at + 1 : lastBefore(c === 0 ? at : at + 1);
    if (!inside && !(b > start && pieces[b - 1]!.pulledBack)) return b;
    // Pulled back: the last opportunity after whitespace before it.
    for (let k = opportunities.length - 1; k >= 0; k--) {
      const o = opportunities[k]!;
      if (o < b && isWhitespace(pieces[o - 1]!)) return o;
    }
    return -1;
  };
  const portionStart = (k: number) => {
    while (k > start && !pieces[k]!.portionStart) k--;
    return k;
  };
  let b = lineBreak(i, pieces[i]!.kind === "text" ? overflowAt() : 0);
  let portion = portionStart(i);
  // Underflow: the portion before is broken again with its last character as the first that
  // does not fit, until the break falls inside the portion looked at (or off the line).
  while (b > start && b < portion) {
    const m = portion - 1;
    b = lineBreak(m, pieces[m]!.chars === 1 ? 0 : pieces[m]!.text.length - 1);
    portion = portionStart(m);
  }
  return b;
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
    if (pc.typed !== undefined) part.typed = first ? pc.typed.slice(0, k) : pc.typed.slice(k);
    if (first) {
      delete part.pulledBack;
      delete part.pulledBackAt;
    } else {
      const at = pc.pulledBackAt?.filter((p) => p > k).map((p) => p - k);
      if (at?.length) part.pulledBackAt = at;
      else delete part.pulledBackAt;
    }
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
  if (pc.typed !== undefined) pieces[i]!.typed = pc.typed + "-";
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
