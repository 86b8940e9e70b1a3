/**
 * Value readers shared by the property readers: lengths (twips, half-points, EMU, Strict's
 * universal measures), on/off flags, colours. Each returns undefined for what it cannot read,
 * so odd values fall back to inherited formatting instead of failing.
 */
import type { XNode } from "./xml-tree";

const UNIT_PT: Record<string, number> = { pt: 1, in: 72, cm: 72 / 2.54, mm: 72 / 25.4, pc: 12, pi: 12 };

/**
 * A measure in points: plain numbers are `unitsPerPt` units per point (20 for twips), or a universal
 * measure ("1.5cm"). A plain number is cut to whole units toward zero, as LibreOffice's reader
 * stores it: w:sz="28.8" is 28 half-points, 14 pt (measured).
 */
export function measure(value: string | undefined, unitsPerPt: number): number | undefined {
  if (value === undefined) return undefined;
  const m = /^\s*(-?(?:\d+\.?\d*|\.\d+))\s*(pt|in|cm|mm|pc|pi)?\s*$/.exec(value);
  if (!m) return undefined;
  const n = Number(m[1]);
  if (!Number.isFinite(n)) return undefined;
  return m[2] ? n * UNIT_PT[m[2]]! : Math.trunc(n) / unitsPerPt;
}

export const twips = (v: string | undefined) => measure(v, 20);
export const emu = (v: string | undefined) => measure(v, 12700);
/** Half-points (w:sz). */
export const halfPoints = (v: string | undefined) => measure(v, 2);
/** Eighths of a point (border w:sz). */
export const eighths = (v: string | undefined) => measure(v, 8);

export function int(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = parseInt(v, 10);
  return Number.isFinite(n) ? n : undefined;
}

/** w:val of a child element. */
export function val(node: XNode | undefined, child: string): string | undefined {
  return node?.child(child)?.attr("val");
}

/** An on/off element (`<w:b/>`, `<w:b w:val="0"/>`); undefined when absent. */
export function onOff(node: XNode | undefined): boolean | undefined {
  if (!node) return undefined;
  const v = node.attr("val");
  if (v === undefined) return true;
  return !(v === "0" || v === "false" || v === "off" || v === "none");
}

export function flag(parent: XNode | undefined, child: string): boolean | undefined {
  return onOff(parent?.child(child));
}

/** "RRGGBB" upper-case, or null for auto; undefined when unreadable. */
export function hexColor(v: string | undefined): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === "auto") return null;
  const m = /^#?([0-9a-fA-F]{6})$/.exec(v.trim());
  return m ? m[1]!.toUpperCase() : undefined;
}

/** Applies a theme tint/shade (hex byte as Word writes them) to an RRGGBB colour, in RGB (best effort). */
export function tintShade(hex: string, tint?: string, shade?: string): string {
  const t = tint !== undefined ? parseInt(tint, 16) / 255 : undefined;
  const s = shade !== undefined ? parseInt(shade, 16) / 255 : undefined;
  const out: string[] = [];
  for (let i = 0; i < 3; i++) {
    let c = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    if (s !== undefined && Number.isFinite(s)) c = c * s;
    if (t !== undefined && Number.isFinite(t)) c = c + (255 - c) * (1 - t);
    out.push(
      Math.max(0, Math.min(255, Math.round(c)))
        .toString(16)
        .padStart(2, "0"),
    );
  }
  return out.join("").toUpperCase();
}

const HIGHLIGHTS: Record<string, string> = {
  black: "000000",
  blue: "0000FF",
  cyan: "00FFFF",
  green: "00FF00",
  magenta: "FF00FF",
  red: "FF0000",
  yellow: "FFFF00",
  white: "FFFFFF",
  darkBlue: "000080",
  darkCyan: "008080",
  darkGreen: "008000",
  darkMagenta: "800080",
  darkRed: "800000",
  darkYellow: "808000",
  darkGray: "808080",
  lightGray: "C0C0C0",
};

/** w:highlight names → hex; "none" → null. */
export function highlightColor(name: string | undefined): string | null | undefined {
  if (name === undefined) return undefined;
  if (name === "none") return null;
  return HIGHLIGHTS[name];
}
