/**
 * Fonts a document embeds (word/fonts/*.odttf, named by word/fontTable.xml's w:embedRegular,
 * w:embedBold, w:embedItalic, w:embedBoldItalic), which LibreOffice draws the document with.
 *
 * Obfuscation (ECMA-376 Part 1, §17.8.1): the first 32 bytes of the file are XORed with the 16 bytes
 * of the entry's w:fontKey GUID read from its last hex pair to its first, twice over (LibreOffice's
 * writerfilter `EmbeddedFontHandler` derives the same key; an empty key leaves the file as it is).
 *
 * LibreOffice uses an embedded font only when its OS/2 fsType allows editing (installable, 0, or
 * the editable bit 8: vcl `EmbeddedFontsHelper::sufficientTTFRights`); a preview-and-print or
 * restricted font is ignored and the family is substituted as if nothing were embedded.
 *
 * Hostile input: each file is capped in size, the faces and their bytes in number and total, and a
 * file that is not a sane TrueType font (table directory inside the file, the tables layout and
 * painting need present) is skipped. Nothing here fails the document.
 */
import type { DocxPackage } from "../../docx/package";
import { LIMITS } from "../../limits";
import type { XNode } from "./xml-tree";

export type EmbeddedStyle = "Regular" | "Bold" | "Italic" | "BoldItalic";

export interface EmbeddedFont {
  /** The font table's name for it (w:font w:name): the family it stands for. */
  family: string;
  style: EmbeddedStyle;
  /** The de-obfuscated TrueType file. */
  bytes: Uint8Array;
}

const STYLE_OF: Record<string, EmbeddedStyle> = {
  embedRegular: "Regular",
  embedBold: "Bold",
  embedItalic: "Italic",
  embedBoldItalic: "BoldItalic",
};

/** Tables our font reader and subsetter need. */
const REQUIRED_TABLES = ["cmap", "head", "hhea", "hmtx", "maxp", "loca", "glyf"];

/** The usable embedded fonts of the font table `fontTable` (part `part` of `pkg`). */
export function readEmbeddedFonts(
  pkg: DocxPackage,
  part: string | undefined,
  fontTable: XNode | undefined,
): EmbeddedFont[] {
  if (!part || !fontTable) return [];
  const limits = LIMITS.render.embeddedFonts;
  const targets = new Map(
    pkg
      .relationships(part)
      .filter((r) => !r.external && r.type.endsWith("/font"))
      .map((r) => [r.id, r.target]),
  );
  const out: EmbeddedFont[] = [];
  let total = 0;
  for (const font of fontTable.all("font")) {
    const family = font.attr("name");
    if (!family) continue;
    for (const child of font.children) {
      const style = STYLE_OF[child.name];
      const target = style && targets.get(child.attr("id") ?? "");
      if (!style || !target || out.length >= limits.maxFaces) continue;
      const entry = pkg.entry(target);
      if (
        !entry ||
        entry.uncompressedSize > limits.maxFaceBytes ||
        total + entry.uncompressedSize > limits.maxTotalBytes
      )
        continue;
      let bytes: Uint8Array;
      try {
        bytes = pkg.readBinary(entry.name, limits.maxFaceBytes);
      } catch {
        continue; // a damaged entry: the family is substituted
      }
      total += bytes.length;
      const key = fontKey(child.attr("fontKey"));
      if (key === null) continue;
      deobfuscate(bytes, key);
      if (!isUsableTrueType(bytes)) continue;
      out.push({ family, style, bytes });
    }
  }
  return out;
}

/**
 * The 16 key bytes of a w:fontKey GUID ("{62E79491-959F-41E9-B76B-6B32631DEA5C}"): its hex digits
 * paired from the end. Absent or all zero: no key (empty). Malformed: null (the font is skipped).
 */
export function fontKey(guid: string | undefined): Uint8Array | null {
  if (!guid) return new Uint8Array(0);
  const hex = guid.replace(/[{}-]/g, "");
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) return null;
  const key = new Uint8Array(16);
  for (let i = 0; i < 16; i++) key[i] = parseInt(hex.slice(30 - 2 * i, 32 - 2 * i), 16);
  return key;
}

/** XORs the first 32 bytes with the key, twice over (in place). */
export function deobfuscate(bytes: Uint8Array, key: Uint8Array): void {
  if (key.length === 0) return;
  for (let i = 0; i < 32 && i < bytes.length; i++) bytes[i]! ^= key[i % 16]!;
}

/**
 * A TrueType (glyf) font whose table directory lies inside the file with the tables layout and
 * painting read, and whose fsType lets LibreOffice use it (installable or editable).
 */
export function isUsableTrueType(b: Uint8Array): boolean {
  if (b.length < 12) return false;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const version = view.getUint32(0);
  if (version !== 0x00010000 && version !== 0x74727565 /* 'true' */) return false;
  const numTables = view.getUint16(4);
  if (numTables === 0 || numTables > 64 || 12 + numTables * 16 > b.length) return false;
  const tables = new Map<string, { offset: number; length: number }>();
  for (let i = 0; i < numTables; i++) {
    const at = 12 + i * 16;
    const tag = String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);
    const offset = view.getUint32(at + 8);
    const length = view.getUint32(at + 12);
    if (offset + length > b.length) return false;
    tables.set(tag, { offset, length });
  }
  if (!REQUIRED_TABLES.every((t) => tables.has(t))) return false;
  const os2 = tables.get("OS/2");
  if (os2 && os2.length >= 10) {
    const fsType = view.getUint16(os2.offset + 8);
    if (fsType !== 0 && (fsType & 0x0008) === 0) return false;
  }
  return true;
}
