/**
 * A justified line's Arabic-script words stretched by kashidas (where: kashida.ts): which words of
 * the line stretch and by how much, and how a stretched word is drawn.
 */
import type { PaintItem } from "../types";
import { needsJoining } from "./arabic-joining";
import { shapedWidth } from "./shaping";
import { kashidaPositions } from "./kashida";
import type { Piece } from "./piece";

const TATWEEL = 0x640;

/** Where a justified line stretches its Arabic words: piece index → UTF-16 offsets, and the width of each kashida. */
export interface KashidaPlan {
  at: Map<number, number[]>;
  add: number;
}

/**
 * Kashida justification of a line holding Arabic-script words (see kashida.ts), as LibreOffice
 * does it: the words stretch, the spaces do not; while the share of each kashida would be
 * narrower than the font's tatweel, the line's first kashidas are dropped. Null: the spaces
 * stretch (no place to stretch, or a face without a tatweel).
 */
export function planKashidas(pieces: Piece[], from: number, to: number, free: number): KashidaPlan | null {
  const places: { k: number; at: number; min: number }[] = [];
  for (let k = from; k <= to; k++) {
    const pc = pieces[k]!;
    if (pc.kind !== "text" || !pc.rtl || !needsJoining(pc.text)) continue;
    const at = kashidaPositions(pc.text);
    if (at.length === 0) continue;
    // LibreOffice asks the run's own font (not the one its glyphs fall back to) for a tatweel:
    // Arabic in Times New Roman (Tinos has none) stretches its spaces, in a stand-in font its words.
    if (!pc.face.covers(TATWEEL) || !pc.metrics.covers(TATWEEL)) return null;
    // The narrowest kashida: the tatweel's advance. (LibreOffice once kept 3.1 pt kashidas of a
    // 3.52 pt tatweel in a document holding only that paragraph; in longer ones it used the advance.)
    const min = (pc.face.widthOf("\u0640", pc.size) * pc.style.scale) / 100;
    for (const a of at) places.push({ k, at: a, min });
  }
  let first = 0;
  while (first < places.length && free / (places.length - first) < places[first]!.min) first++;
  if (first >= places.length) return null;
  const at = new Map<number, number[]>();
  for (const p of places.slice(first)) {
    if (!at.has(p.k)) at.set(p.k, []);
    at.get(p.k)!.push(p.at);
  }
  return { at, add: free / (places.length - first) };
}

/**
 * A right-to-left word stretched by kashidas: its parts, each shaped as if joined across the
 * stretch, from the right edge leftwards, with a bar in the tatweel's outline filling each gap.
 * The gaps hold no text, so copied text reads the parts as LibreOffice's PDF does.
 */
export function kashidaWordItems(
  pc: Piece,
  x: number,
  w: number,
  y: number,
  at: number[],
  add: number,
  out: PaintItem[],
): void {
  const cuts = [0, ...at, pc.text.length];
  const scale = pc.style.scale / 100;
  const bar = pc.face.glyphBounds?.(TATWEEL, pc.size) ?? null;
  let right = x + w;
  for (let i = 0; i + 1 < cuts.length; i++) {
    const part = pc.text.slice(cuts[i], cuts[i + 1]);
    const stretchAfter = i + 2 < cuts.length;
    const before = i > 0 || !!pc.joinBefore;
    const after = stretchAfter || (i + 2 === cuts.length && !!pc.joinAfter);
    const flags = {
      ...(pc.style.kern ? { kern: true } : {}),
      ...(before ? { joinBefore: true } : {}),
      ...(after ? { joinAfter: true } : {}),
    };
    const width = shapedWidth(pc.face, part, pc.size, flags) * scale + pc.style.charSpacing * [...part].length;
    const item: Extract<PaintItem, { kind: "text" }> = {
      kind: "text",
      x: right - width,
      y,
      text: part,
      face: pc.face,
      size: pc.size,
      color: pc.style.color,
      width,
      rtl: true,
    };
    if (pc.style.kern) item.kern = true;
    if (before) item.joinBefore = true;
    if (after) item.joinAfter = true;
    if (pc.style.charSpacing) item.charSpacing = pc.style.charSpacing;
    if (pc.style.scale !== 100) item.scale = pc.style.scale;
    out.push(item);
    right -= width;
    if (stretchAfter) {
      if (bar && bar.top > bar.bottom)
        out.push({
          kind: "rect",
          x: right - add,
          y: y - bar.top,
          width: add,
          height: bar.top - bar.bottom,
          fill: pc.style.color ?? "000000",
        });
      right -= add;
    }
  }
}
