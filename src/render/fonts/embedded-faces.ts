/**
 * The faces of a document's embedded fonts (model/embedded-fonts.ts), by the font table's family name,
 * for the font book: parsed once per document (never cached across documents: two documents may embed
 * different files under one name), each checked by measuring with it before it is trusted; a file
 * the font reader rejects is dropped and its family substituted.
 */
import type { EmbeddedFont, EmbeddedStyle } from "../model/embedded-fonts";
import { NODE_FONT_PACKAGE_PATHS, styleName } from "./catalog";
import { normalizeFamily } from "./fontconfig";
import { LoadedFace } from "./font-face";
import type { Shaper } from "../shaping/harfbuzz";

export interface EmbeddedFaces {
  /** The embedded face of `family` nearest the style (weight before posture), or undefined. */
  face(family: string, bold: boolean, italic: boolean): LoadedFace | undefined;
  /** Frees the faces' memory in the shaper (they live for one document). */
  release(): void;
}

export function embeddedFaces(fonts: readonly EmbeddedFont[], shaper: Shaper): EmbeddedFaces {
  const byFamily = new Map<string, Map<EmbeddedStyle, LoadedFace>>();
  for (const f of fonts) {
    const key = normalizeFamily(f.family);
    const styles = byFamily.get(key) ?? new Map<EmbeddedStyle, LoadedFace>();
    if (styles.has(f.style)) continue;
    const face = trustedFace(f.family, f.style, f.bytes, shaper);
    if (!face) continue;
    styles.set(f.style, face);
    byFamily.set(key, styles);
  }
  return {
    face(family, bold, italic) {
      const styles = byFamily.get(normalizeFamily(family));
      if (!styles) return undefined;
      for (const [b, i] of [
        [bold, italic],
        [bold, !italic],
        [!bold, italic],
        [!bold, !italic],
      ] as const) {
        const face = styles.get(styleName(b, i));
        if (face) return face;
      }
      return undefined;
    },
    release() {
      for (const styles of byFamily.values()) for (const face of styles.values()) face.releaseShaper();
    },
  };
}

/**
 * The PDF font name of an embedded face: its PostScript name, as LibreOffice's PDF has it
 * ("SourceSerifPro-Bold"), else the family's letters and the style; marked where it would clash
 * with a catalog face of the same name.
 */
function faceId(postscriptName: string | null | undefined, family: string, style: EmbeddedStyle): string {
  const ps = (postscriptName ?? "").replace(/[^A-Za-z0-9_.-]/g, "").slice(0, 63);
  const id = ps || `${family.replace(/[^A-Za-z0-9]/g, "").slice(0, 48) || "Embedded"}-${style}`;
  return NODE_FONT_PACKAGE_PATHS.has(`${id}.ttf`) ? `${id}-Embedded` : id;
}

/** A face that parses and measures (metrics, a cmap lookup, advances), or undefined. */
function trustedFace(family: string, style: EmbeddedStyle, bytes: Uint8Array, shaper: Shaper): LoadedFace | undefined {
  let face: LoadedFace | undefined;
  try {
    const parsed = new LoadedFace("embedded", bytes);
    face = new LoadedFace(faceId(parsed.font.postscriptName, family, style), bytes);
    face.useShaper(shaper);
    const probe = [face.ascent(12), face.descent(12), face.lineHeight(12), face.widthOf("Hamburgefonstiv 0123", 12)];
    if (probe.every((n) => Number.isFinite(n)) && face.lineHeight(12) > 0 && face.covers(0x41)) return face;
  } catch {
    // Not a font we can use: the family is substituted.
  }
  face?.releaseShaper();
  return undefined;
}
