/**
 * Vertical writing (a section's w:textDirection tbRl, as Chinese and Japanese books and poems use):
 * lines run top to bottom and follow each other from right to left. The section is laid out on its
 * page turned a quarter turn (lines become columns), then turned back: a point (vx, vy) of the
 * turned page is (W - vy, vx) on the real page of width W.
 *
 * Text is set upright, character by character down its column, centred on the column's axis: right
 * for ideographs and kana (1 em each); Latin letters and digits stand upright too (Word and
 * LibreOffice turn them sideways: not done). Pictures keep their size and stand upright at the top
 * right of their turned box.
 */
import type { Section } from "../../model/types";
import type { LaidOutPage, PaintItem } from "../types";

/** A tbRl section as laid out: page turned, margins with it (top → right, right → bottom ...). */
export function turnSection(s: Section): Section {
  const m = s.margins;
  return {
    ...s,
    pageWidth: s.pageHeight,
    pageHeight: s.pageWidth,
    // The real right margin is the turned page's top, the real top margin its left.
    margins: { ...m, top: m.right, right: m.bottom, bottom: m.left, left: m.top },
  };
}

/** Share of the size from the baseline up to the middle of an ideograph's em box. */
const EM_MIDDLE = 0.38;
/** Share of the size from the top of an ideograph's em box down to its baseline. */
const EM_TOP_TO_BASELINE = 0.88;

/** Unicode's vertical presentation forms (U+FE10–FE19, U+FE30–FE44) of East Asian punctuation. */
const VERTICAL_FORMS = new Map<string, string>([
  ["，", "\ufe10"],
  ["、", "\ufe11"],
  ["。", "\ufe12"],
  ["：", "\ufe13"],
  ["；", "\ufe14"],
  ["！", "\ufe15"],
  ["？", "\ufe16"],
  ["〖", "\ufe17"],
  ["〗", "\ufe18"],
  ["…", "\ufe19"],
  ["‥", "\ufe30"],
  ["—", "\ufe31"],
  ["–", "\ufe32"],
  ["（", "\ufe35"],
  ["）", "\ufe36"],
  ["｛", "\ufe37"],
  ["｝", "\ufe38"],
  ["〔", "\ufe39"],
  ["〕", "\ufe3a"],
  ["【", "\ufe3b"],
  ["】", "\ufe3c"],
  ["《", "\ufe3d"],
  ["》", "\ufe3e"],
  ["〈", "\ufe3f"],
  ["〉", "\ufe40"],
  ["「", "\ufe41"],
  ["」", "\ufe42"],
  ["『", "\ufe43"],
  ["』", "\ufe44"],
]);

/** A page of a turned section, back on the real page. */
export function turnPageBack(page: LaidOutPage): LaidOutPage {
  const realWidth = page.height;
  const items: PaintItem[] = [];
  for (const item of page.items) items.push(...turnItem(item, realWidth));
  return { width: page.height, height: page.width, items };
}

function turnItem(item: PaintItem, W: number): PaintItem[] {
  switch (item.kind) {
    case "text":
      return uprightCharacters(item, W);
    case "rect":
    case "link":
      return [{ ...item, x: W - (item.y + item.height), y: item.x, width: item.height, height: item.width }];
    case "line":
      return [{ ...item, x1: W - item.y1, y1: item.x1, x2: W - item.y2, y2: item.x2 }];
    case "polygon": {
      const points: number[] = [];
      for (let i = 0; i + 1 < item.points.length; i += 2) points.push(-item.points[i + 1]!, item.points[i]!);
      return [{ ...item, x: W - item.y, y: item.x, points }];
    }
    case "image":
      return [{ ...item, x: W - item.y - item.width, y: item.x }];
  }
}

/** One text item of a turned line → its characters standing upright down the column. */
function uprightCharacters(item: Extract<PaintItem, { kind: "text" }>, W: number): PaintItem[] {
  const scale = (item.scale ?? 100) / 100;
  const axis = W - (item.y - EM_MIDDLE * item.size);
  const out: PaintItem[] = [];
  let vx = item.x;
  for (const ch of item.text) {
    const glyph = item.face.widthOf(ch, item.size) * scale;
    const advance = glyph + (item.charSpacing ?? 0);
    if (ch.trim()) {
      // Punctuation and brackets take their vertical forms where the face has them (copied as typed).
      const form = VERTICAL_FORMS.get(ch);
      const drawn = form && item.face.covers(form.codePointAt(0)!) ? form : ch;
      out.push({
        kind: "text",
        x: axis - glyph / 2,
        y: vx + EM_TOP_TO_BASELINE * item.size,
        text: drawn,
        face: item.face,
        size: item.size,
        color: item.color,
        width: glyph,
        ...(drawn !== ch ? { typed: ch } : {}),
        ...(item.scale !== undefined ? { scale: item.scale } : {}),
      });
    }
    vx += advance;
  }
  return out;
}
