/**
 * Loads the faces a document needs before layout (layout measures synchronously): the substitute
 * of every family/weight/style its runs use, plus the Noto fallback faces for characters those
 * faces lack (found by scanning the model's text).
 */
import type { Block, DocumentModel, FontTableEntry, Inline, RunStyle } from "../model/types";
import type { MetafileFont } from "../model/wmf";
import { plainRunStyle } from "../model/plain-styles";
import {
  eastAsianFamily,
  eastAsianLineFamily,
  fallbackFamilies,
  fontFile,
  isSymbolBlock,
  mayCover,
  namedFamily,
  substituteFamily,
  type FamilyId,
} from "./catalog";
import { fallbackLanguage, isDecisiveLanguage } from "./fontconfig";
import { isEastAsian, isEastAsianShared } from "./east-asian";
import { faceFromBytes, LoadedFace } from "./font-face";
import { embeddedFaces, type EmbeddedFaces } from "./embedded-faces";
import type { FaceRequest, FontBook, FontFace, FontSource } from "./types";
import type { Shaper } from "../shaping/harfbuzz";

/** Loaded when the document names no font at all (Word's built-in default is Times New Roman). */
const LAST_RESORT: { family: FamilyId; bold: boolean; italic: boolean } = {
  family: "Tinos",
  bold: false,
  italic: false,
};

interface StyleKey {
  family: FamilyId;
  bold: boolean;
  italic: boolean;
}

type Languages = NonNullable<DocumentModel["languages"]>;

/** A family's styles from the wanted one outwards: weight before posture (it changes widths more). */
function styleOrder(bold: boolean, italic: boolean): [boolean, boolean][] {
  return [
    [bold, italic],
    [bold, !italic],
    [!bold, italic],
    [!bold, !italic],
  ];
}

export async function loadFontBook(model: DocumentModel, source: FontSource): Promise<FontBook> {
  const usage = collectUsage(model);
  const loader = new FaceLoader(source, await source.shaper());

  // Primary faces, in parallel.
  const primaries = [...usage.values()];
  await Promise.all(primaries.map((u) => loader.load(fontFile(u.key.family, u.key.bold, u.key.italic))));
  if (loader.loaded.size === 0) await loader.load(fontFile(LAST_RESORT.family, LAST_RESORT.bold, LAST_RESORT.italic));

  // Fallbacks for code points a primary lacks: for each name it was asked under and each
  // character's language, fontconfig's order, tried until one face covers the character.
  const languages = model.languages ?? {};
  for (const u of primaries) {
    const primary = loader.get(fontFile(u.key.family, u.key.bold, u.key.italic));
    if (!primary) continue;
    const missing = [...u.codePoints].filter((cp) => !primary.covers(cp));
    for (const requested of u.names) {
      const byLanguage = new Map<string | undefined, number[]>();
      for (const cp of missing) {
        const lang = fallbackLanguage(cp, languages);
        byLanguage.set(lang, [...(byLanguage.get(lang) ?? []), cp]);
      }
      for (const [lang, cps] of byLanguage) {
        let left = cps;
        for (const fb of fallbackFamilies(u.key.family, requested, lang)) {
          // The wanted style, then upright, then regular: a style may lack a script its family has.
          for (const [b, i] of [
            [u.key.bold, u.key.italic],
            [u.key.bold, false],
            [false, false],
          ] as const) {
            if (!left.some((cp) => mayCover(fb, cp))) break;
            const face = await loader.load(fontFile(fb, b, i));
            if (face) left = left.filter((cp) => !(mayCover(fb, cp) && face.covers(cp)));
          }
          if (left.length === 0) break;
        }
      }
    }
  }
  return new LoadedFontBook(
    loader,
    model.fontTable,
    languages,
    embeddedFaces(model.embeddedFonts ?? [], loader.shaper),
  );
}

class FaceLoader {
  readonly loaded = new Map<string, LoadedFace>();
  private readonly missing = new Set<string>();
  constructor(
    private readonly source: FontSource,
    readonly shaper: Shaper,
  ) {}

  get(file: string): LoadedFace | undefined {
    return this.loaded.get(file);
  }

  async load(file: string): Promise<LoadedFace | undefined> {
    const hit = this.loaded.get(file);
    if (hit || this.missing.has(file)) return hit;
    const bytes = await this.source.load(file);
    if (!bytes) {
      this.missing.add(file);
      return undefined;
    }
    // A concurrent load of the same file may have finished meanwhile: both give the cached face.
    const face = faceFromBytes(file, bytes);
    face.useShaper(this.shaper);
    this.loaded.set(file, face);
    return face;
  }
}

/** A request's primary face, and its fallback faces per character language (built when first needed). */
interface Resolved {
  family: FamilyId;
  requested: string;
  bold: boolean;
  italic: boolean;
  primary: LoadedFace;
  /** The catalog face the family maps to, when an embedded face is the primary. */
  substitute?: LoadedFace;
  fallbacks: Map<string | undefined, { family: FamilyId; face: LoadedFace }[]>;
}

class LoadedFontBook implements FontBook {
  private readonly resolved = new Map<string, Resolved>();
  /** `eastAsianLineFace` by family, style and language. */
  private readonly lineFaces = new Map<string, FontFace>();
  private readonly anyFace: LoadedFace;

  constructor(
    private readonly loader: FaceLoader,
    private readonly fontTable: ReadonlyMap<string, FontTableEntry>,
    private readonly languages: Languages,
    private readonly embedded: EmbeddedFaces,
  ) {
    this.anyFace = loader.loaded.values().next().value!;
  }

  face(req: FaceRequest): FontFace {
    return this.resolve(req).primary;
  }

  release(): void {
    this.embedded.release();
  }

  eastAsianLineFace(req: FaceRequest, lang: string | undefined): FontFace {
    const key = `${req.family}\u0000${req.bold ? 1 : 0}${req.italic ? 1 : 0}\u0000${lang ?? ""}`;
    let face = this.lineFaces.get(key);
    if (!face) {
      const drawn = this.resolve({ ...req, eastAsian: true });
      const family = eastAsianLineFamily(req.family, lang, this.fontTable);
      // A face the document embeds for the name is what LibreOffice lays the text out with.
      face =
        drawn.substitute || family === drawn.family
          ? drawn.primary
          : (this.nearest(family, req.bold, req.italic) ?? drawn.primary);
      this.lineFaces.set(key, face);
    }
    return face;
  }

  split(text: string, req: FaceRequest): { text: string; face: FontFace }[] {
    const resolved = this.resolve(req);
    const { primary } = resolved;
    const fallbackOf = this.fallbackFaces(resolved, text);
    const own = this.asianOwn(resolved);
    const pieces: { text: string; face: FontFace }[] = [];
    let current: LoadedFace | null = null;
    let buf = "";
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      let face: LoadedFace = primary;
      // Combining marks and format controls (ZWNJ, ZWJ, direction marks) stay with the piece
      // they are in when its face has them, as part of its shaping; spaces and
      // punctuation too, unless the primary has them: LibreOffice falls back glyph by glyph, so
      // `, ( ) . !` and spaces among Cyrillic or Greek words a Caladea run lacks are Caladea's
      // (measured). Shapes, arrows and dingbats, like letters, take the primary when it has them
      // (LibreOffice: "■□" in Carlito draws ■ with DejaVu Sans, □ with Carlito). East Asian text's
      // own face (`asianOwn`) is LibreOffice's primary there: what it has is its (and, not measured
      // with it, shared punctuation stays with its piece as before).
      if (own && !primary.covers(cp) && own.covers(cp)) face = own;
      else if (
        current &&
        !/[\p{L}\p{N}]/u.test(ch) &&
        !isSymbolBlock(cp) &&
        current.covers(cp) &&
        (own || MARK_OR_FORMAT.test(ch) || !primary.covers(cp))
      )
        face = current;
      else if (!primary.covers(cp) && cp >= 0x20) face = fallbackOf.get(cp) ?? primary;
      // A mark the face drawing its letter lacks takes the letter (and its other marks) with it to the
      // fallback, as LibreOffice falls back whole clusters (measured: "لۡ" in DejaVu Sans text is drawn
      // with Noto Sans Arabic, sukun and lam both).
      if (face !== current && current && buf && MARK.test(ch)) {
        const cluster = buf.slice(lastClusterStart(buf));
        if (cluster && [...cluster].every((c) => face.covers(c.codePointAt(0)!))) {
          buf = buf.slice(0, buf.length - cluster.length);
          if (buf) pieces.push({ text: buf, face: current });
          buf = cluster;
          current = face;
        }
      }
      if (face !== current && buf) {
        pieces.push({ text: buf, face: current! });
        buf = "";
      }
      current = face;
      buf += ch;
    }
    if (buf) pieces.push({ text: buf, face: current! });
    return pieces;
  }

  private resolve(req: FaceRequest): Resolved {
    const key = `${req.family}\u0000${req.bold ? 1 : 0}${req.italic ? 1 : 0}${req.eastAsian ? 1 : 0}`;
    let r = this.resolved.get(key);
    if (!r) {
      const family = req.eastAsian
        ? eastAsianFamily(req.family, this.fontTable)
        : substituteFamily(req.family, this.fontTable);
      const substitute = this.nearest(family, req.bold, req.italic) ?? this.anyFace;
      // A face the document embeds for the family is used as LibreOffice uses it; the substitute
      // then heads its fallbacks (loaded like any primary).
      const embedded = this.embedded.face(req.family, req.bold, req.italic);
      const primary = embedded ?? substitute;
      r = {
        family,
        requested: req.family,
        bold: req.bold,
        italic: req.italic,
        primary,
        substitute: embedded ? substitute : undefined,
        fallbacks: new Map(),
      };
      this.resolved.set(key, r);
    }
    return r;
  }

  /**
   * For East Asian text drawn with Droid Sans Fallback: the face fontconfig gives the font's own name
   * (ＭＳ 明朝 Noto Serif, 宋体 Noto Sans), LibreOffice's Asian font, of which Droid draws only what
   * it lacks. Characters Droid lacks are that face's where it has them, whatever face drew the one
   * before (measured: “▲” and “★” after ideographs in 宋体 zh-CN: quotes Noto Sans, ▲ ★ DejaVu Sans).
   */
  private asianOwn(r: Resolved): LoadedFace | undefined {
    if (r.family !== "DroidSansFallback" || r.substitute) return undefined;
    const own = substituteFamily(r.requested, this.fontTable);
    return own === r.family ? undefined : this.nearest(own, r.bold, r.italic);
  }

  /**
   * The fallback face of each character of `text` the primary lacks, as LibreOffice picks them: it
   * asks fontconfig once with all of them, and fontconfig ranks first the face that has the most
   * (measured: "■□●○◆★✓①" in Cambria all in DejaVu Sans, which has every one; "αβγ ■" in DejaVu
   * Serif, which has all four, though DejaVu Serif lacks ★); what that face lacks is asked again.
   * Ties go to fontconfig's order for the characters' language. A face draws only what it may be a
   * fallback for (`mayCover`: Noto Sans Hebrew only Hebrew).
   */
  private fallbackFaces(r: Resolved, text: string): Map<number, LoadedFace> {
    const byLanguage = new Map<string | undefined, Set<number>>();
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      if (cp < 0x20 || r.primary.covers(cp)) continue;
      const lang = fallbackLanguage(cp, this.languages);
      byLanguage.set(lang, (byLanguage.get(lang) ?? new Set()).add(cp));
    }
    const out = new Map<number, LoadedFace>();
    for (const [lang, missing] of byLanguage) {
      const candidates = this.fallbacks(r, missing.values().next().value!);
      let left = [...missing];
      // A family fontconfig does not know by name gets, for text in a language only some faces
      // support, the first face supporting it as the run's own face (LibreOffice asks with the run's
      // language before any fallback: Arabic in "Traditional Arabic" is DejaVu Sans, and only what
      // DejaVu Sans lacks, the Quranic sukun, falls back further, to Noto Sans Arabic).
      if (!namedFamily(r.requested) && isDecisiveLanguage(lang) && candidates[0]) {
        const own = candidates[0];
        for (const cp of left) if (mayCover(own.family, cp) && own.face.covers(cp)) out.set(cp, own.face);
        left = left.filter((cp) => !out.has(cp));
      }
      while (left.length) {
        let best: { family: FamilyId; face: LoadedFace } | undefined;
        let most = 0;
        for (const c of candidates) {
          const n = left.filter((cp) => mayCover(c.family, cp) && c.face.covers(cp)).length;
          if (n > most) [best, most] = [c, n];
        }
        if (!best) break;
        const chosen = best;
        for (const cp of left) if (mayCover(chosen.family, cp) && chosen.face.covers(cp)) out.set(cp, chosen.face);
        left = left.filter((cp) => !out.has(cp));
      }
    }
    return out;
  }

  /** The loaded fallback faces for a character, in fontconfig's order for its language. */
  private fallbacks(r: Resolved, cp: number): { family: FamilyId; face: LoadedFace }[] {
    const lang = fallbackLanguage(cp, this.languages);
    let list = r.fallbacks.get(lang);
    if (!list) {
      list = r.substitute ? [{ family: r.family, face: r.substitute }] : [];
      // Every loaded style of each family, nearest first: fontconfig ranks the family above the
      // style, so a style without the script gives way to another style of the same family (DejaVu
      // Sans Oblique has no Arabic: LibreOffice draws italic Arabic with upright DejaVu Sans).
      for (const fb of fallbackFamilies(r.family, r.requested, lang))
        for (const face of new Set(this.styles(fb, r.bold, r.italic)))
          if (face !== r.primary) list.push({ family: fb, face });
      r.fallbacks.set(lang, list);
    }
    return list;
  }

  /** The loaded face of `family` closest to the wanted style (layout may ask for one the scan did not see). */
  private nearest(family: FamilyId, bold: boolean, italic: boolean): LoadedFace | undefined {
    return this.styles(family, bold, italic)[0];
  }

  /** The loaded faces of `family`, nearest the wanted style first (weight before posture: it changes widths more). */
  private styles(family: FamilyId, bold: boolean, italic: boolean): LoadedFace[] {
    return styleOrder(bold, italic).flatMap(([b, i]) => this.loader.get(fontFile(family, b, i)) ?? []);
  }
}

// ---------------------------------------------------------------------------------------------
// What the model uses.

interface Usage {
  key: StyleKey;
  codePoints: Set<number>;
  /** The names the face was asked for under (their generic orders the fallbacks). */
  names: Set<string>;
}

/** Every substitute face the model's runs need, with the code points drawn in it. */
function collectUsage(model: DocumentModel): Map<string, Usage> {
  const usage = new Map<string, Usage>();
  // Run styles are shared by many runs: their faces are worked out once per style object.
  const usagesOf = new Map<RunStyle, Usage[]>();
  const usageOf = (family: FamilyId, style: RunStyle, name: string): Usage => {
    const key = fontFile(family, style.bold, style.italic);
    let u = usage.get(key);
    if (!u) {
      u = { key: { family, bold: style.bold, italic: style.italic }, codePoints: new Set(), names: new Set() };
      usage.set(key, u);
    }
    u.names.add(name);
    return u;
  };
  const usagesFor = (style: RunStyle): Usage[] => {
    let us = usagesOf.get(style);
    if (us) return us;
    us = [];
    for (const name of [style.font, style.fontEastAsia, style.fontComplex]) {
      if (!name) continue;
      const u = usageOf(substituteFamily(name, model.fontTable), style, name);
      if (!us.includes(u)) us.push(u);
    }
    usagesOf.set(style, us);
    return us;
  };
  // East Asian text is drawn with the run's East Asian face (layout/inline/text-pieces.ts `fontSlot`):
  // it is loaded only when such text occurs.
  const eastAsianUsage = (style: RunStyle): Usage => {
    const name = style.fontEastAsia ?? style.font;
    return usageOf(eastAsianFamily(name, model.fontTable), style, name);
  };
  const note = (style: RunStyle, text: string) => {
    if (style.hidden) return;
    const us = usagesFor(style);
    if (!text || !us.length) return;
    const all = style.caps || style.smallCaps ? text + text.toUpperCase() : text;
    for (let i = 0; i < all.length; i++) {
      const cp = all.codePointAt(i)!;
      if (cp > 0xffff) i++;
      if (cp < 0x20) continue;
      if (isEastAsian(cp) || (style.eastAsiaHint && isEastAsianShared(cp))) eastAsianUsage(style).codePoints.add(cp);
      else for (const u of us) u.codePoints.add(cp);
    }
  };

  const blocks = (list: Block[]) => {
    for (const b of list) {
      if (b.type === "paragraph") {
        note(b.markStyle, "");
        if (b.numbering) note(b.numbering.style, b.numbering.text);
        for (const i of b.inlines) inline(i);
      } else {
        for (const row of b.rows) for (const cell of row.cells) blocks(cell.blocks);
      }
    }
  };
  const inline = (i: Inline) => {
    switch (i.type) {
      case "text":
        note(i.style, i.text);
        break;
      case "field":
        note(i.style, i.fallback + "0123456789");
        break;
      case "noteRef":
        note(i.style, i.label);
        break;
      case "box":
        blocks(i.blocks);
        for (const part of i.parts ?? []) inline(part.inline);
        break;
      default:
        note(i.style, "");
    }
  };

  // Text of metafile pictures (model/wmf.ts), drawn by layout/objects/metafile.ts.
  for (const image of model.images?.values() ?? []) {
    for (const item of image.picture?.items ?? [])
      if (item.kind === "text") note(metafileRunStyle(item.font), item.text);
  }
  for (const s of model.sections) blocks(s.blocks);
  // Line numbers (layout/flow/line-numbers.ts) are digits in their own style.
  if (model.lineNumbering) note(model.lineNumbering.style, "0123456789");
  for (const b of model.headerFooters.values()) blocks(b);
  for (const b of model.notes.values()) blocks(b);
  return usage;
}

/** The run style a metafile's font stands for, to load its faces (one object per font object). */
const metafileStyles = new WeakMap<MetafileFont, RunStyle>();
export function metafileRunStyle(font: MetafileFont): RunStyle {
  let style = metafileStyles.get(font);
  if (!style) {
    style = plainRunStyle(font.name, 12, { bold: font.bold, italic: font.italic });
    metafileStyles.set(font, style);
  }
  return style;
}

const MARK = /\p{M}/u;
const MARK_OR_FORMAT = /[\p{M}\p{Cf}]/u;

/** Where the last grapheme cluster of `text` starts: its last character that is not a mark. */
function lastClusterStart(text: string): number {
  let i = text.length;
  while (i > 0) {
    const c = text.codePointAt(i - 1)!;
    const width = c >= 0xdc00 && c <= 0xdfff && i > 1 ? 2 : 1;
    const ch = text.slice(i - width, i);
    i -= width;
    if (!MARK.test(ch)) return i;
  }
  return 0;
}
