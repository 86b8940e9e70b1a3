/**
 * DOCX → DocumentModel: opens the package (bounded ZIP, no DTD), reads theme, styles, numbering,
 * settings, font table and core properties, then the body (split into sections), the headers and
 * footers the sections name, and the footnotes/endnotes. An unreadable package or main document
 * is 422 `docx_invalid`; broken optional parts are skipped.
 */
import { readEmbeddedFonts } from "./embedded-fonts";
import { LimitExceeded, SignetError } from "../../errors";
import { LIMITS } from "../../limits";
import { DocxPackage, type Relationship } from "../../docx/package";
import { EMPTY_PARTS, type Block, type DocumentModel, type FontTableEntry, type Section } from "./types";

const W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
import { parseTree, parseTreeUtf8, XNode } from "./xml-tree";
import { EMPTY_THEME, readTheme } from "./theme";
import { Styles } from "./styles";
import { Numbering } from "./numbering";
import { ParseContext, type Story } from "./context";
import { readBlocks } from "./blocks";
import { readDocProperties } from "./doc-properties";
import { DataStores } from "./data-binding";
import { Bookmarks } from "./field-results";
import { noteNumberAsLabel } from "./notes";
import { readSection } from "./sections";
import type { ReadEnv } from "./properties";
import { int, onOff, twips, val } from "./units";
import { toNumberFormat } from "./number-format";
import { resolveLineNumbering } from "./line-numbering";

/** Throws 413 `zip_limit` when the DOCX is too large to render in an isolate (checked from the ZIP directory, nothing inflated). */
export function assertRenderable(bytes: Uint8Array): void {
  const pkg = DocxPackage.open(bytes);
  assertRenderableSize(pkg, pkg.mainPart, pkg.relationships(pkg.mainPart));
}

export function parseDocx(bytes: Uint8Array): DocumentModel {
  const pkg = DocxPackage.open(bytes);
  const main = pkg.mainPart;
  const mainRels = pkg.relationships(main);
  assertRenderableSize(pkg, main, mainRels);
  const partOf = (type: string) =>
    mainRels.find((r) => !r.external && r.type.endsWith(`/${type}`) && pkg.has(r.target))?.target;
  const optional = (name: string | undefined) => (name ? readOptional(pkg, name) : undefined);

  const env: ReadEnv = { theme: EMPTY_THEME, charUnit: 10.5 };
  const settings = optional(partOf("settings"));
  const noHtmlAutoSpacing = onOff(settings?.child("compat")?.child("doNotUseHTMLParagraphAutoSpacing")) ?? false;
  if (noHtmlAutoSpacing) env.noAutoSpacing = true;
  // Theme fonts left empty for East Asian and complex scripts come from the theme's per-script list,
  // chosen by the document's theme font languages (w:themeFontLang), as in Word and LibreOffice.
  const themeLang = settings?.child("themeFontLang");
  env.theme = readTheme(optional(partOf("theme")), {
    eastAsia: themeLang?.attr("eastAsia"),
    bidi: themeLang?.attr("bidi"),
  });
  const styles = new Styles(optional(partOf("styles")), env);
  const numbering = new Numbering(optional(partOf("numbering")), env, styles);
  const ctx = new ParseContext(pkg, env, styles, numbering);
  const override = settings
    ?.child("compat")
    ?.all("compatSetting")
    .find((c) => c.attr("name") === "overrideTableStyleFontSizeAndJustification")
    ?.attr("val");
  ctx.tableStyleBeatsDefaults = !(override === "1" || override === "true" || override === "on");
  const split = settings?.child("compat")?.child("splitPgBreakAndParaMark");
  ctx.splitPageBreakAndMark = split !== undefined && !["0", "false", "off"].includes(split.attr("val") ?? "");
  // Property fields and data-bound controls read the same property parts: each is parsed once.
  const propertyParts = new Map<string, XNode | undefined>();
  const readPropertyPart = (name: string) => {
    if (!propertyParts.has(name)) propertyParts.set(name, readOptional(pkg, name));
    return propertyParts.get(name);
  };
  ctx.docProperties = readDocProperties(pkg, readPropertyPart);
  ctx.dataStores = new DataStores(pkg, readPropertyPart);

  for (const kind of ["footnote", "endnote"] as const) {
    const pr = settings?.child(`${kind}Pr`);
    const fmt = val(pr, "numFmt");
    const start = int(val(pr, "numStart"));
    if (fmt) ctx.noteNumbering[kind].format = toNumberFormat(fmt);
    if (start !== undefined && start >= 0) ctx.noteNumbering[kind].start = start;
  }
  ctx.footnotesRestartEachPage = val(settings?.child("footnotePr"), "numRestart") === "eachPage";

  const mainStory = ctx.story(main);
  const sections: Section[] = [];
  let blocks: Block[] = [];
  const endSection = (sectPr: XNode | undefined) => {
    sections.push({ ...readSection(sectPr, mainStory, sections[sections.length - 1]), blocks });
    blocks = [];
  };
  // Blocks go to the current section's list; a paragraph carrying a sectPr closes it.
  const sink: Block[] = [];
  const onSectionEnd = (sectPr: XNode) => {
    for (const b of sink) blocks.push(b);
    sink.length = 0;
    endSection(sectPr);
  };
  // The body is read one top-level element at a time while the part is decoded and parsed, and
  // each element's subtree is dropped once read: neither the whole text of a large document.xml
  // (25 MB for 12 MB of Cyrillic XML) nor its whole element tree (35 MB) ever exists at once.
  const single = new XNode("", "#block", 0, 0);
  const documentBytes = pkg.readBinary(main, LIMITS.docx.maxXmlPartBytes);
  ctx.bookmarks = new Bookmarks(() => documentBytes);
  const document = parseTreeUtf8(documentBytes, main, {
    depth: 3,
    onComplete(node, parent) {
      if (parent.name !== "body" || node.name === "sectPr") return false;
      single.children = [node];
      readBlocks(single, ctx, mainStory, undefined, onSectionEnd, sink);
      single.children = [];
      return true;
    },
  });
  for (const b of sink) blocks.push(b);
  endSection(document.child("body")?.child("sectPr"));
  // LibreOffice keeps an empty paragraph above a table that starts the document when the body
  // references footnotes or endnotes (measured): the table starts one empty line lower.
  const start = sections[0]!.blocks;
  if (start[0]?.type === "table" && ctx.noteLabels.size > 0) {
    single.children = [new XNode("", "p", 0, 0)];
    start.unshift(...readBlocks(single, ctx, mainStory));
    single.children = [];
  }

  const headerFooters = new Map<string, Block[]>();
  for (const s of sections) {
    for (const part of [...Object.values(s.headers), ...Object.values(s.footers)]) {
      if (!part || headerFooters.has(part)) continue;
      const root = optional(part);
      headerFooters.set(part, root ? readBlocks(root, ctx, ctx.story(part)) : []);
    }
  }

  const evenAndOddHeaders = onOff(settings?.child("evenAndOddHeaders")) ?? false;
  if (sections.some((s) => !s.headers.even !== !s.headers.default || !s.footers.even !== !s.footers.default)) {
    // LibreOffice turns a header on for even and odd pages alike: a page whose parity has no part
    // shows an empty one, a paragraph in the Header (Footer) style, which takes its room (measured).
    for (const [id, styleId] of [
      [EMPTY_PARTS.header, "Header"],
      [EMPTY_PARTS.footer, "Footer"],
    ] as const) {
      const root = parseTree(
        `<w:hdr xmlns:w="${W_NS}"><w:p><w:pPr><w:pStyle w:val="${styleId}"/></w:pPr></w:p></w:hdr>`,
        main,
      );
      headerFooters.set(id, readBlocks(root, ctx, mainStory));
    }
  }

  const notes = new Map<string, Block[]>();
  for (const kind of ["footnote", "endnote"] as const) {
    const part = partOf(`${kind}s`);
    const root = optional(part);
    if (!part || !root) continue;
    for (const note of root.all(kind)) {
      const type = note.attr("type");
      if (type && type !== "normal") continue;
      const id = note.attr("id") ?? "";
      const story: Story = {
        ...ctx.story(part),
        noteLabel: ctx.noteLabels.get(`${kind}:${id}`) ?? "",
        noteKey: `${kind}:${id}`,
      };
      const blocks = readBlocks(note, ctx, story);
      noteNumberAsLabel(blocks, story.noteLabel ?? "");
      notes.set(`${kind}:${id}`, blocks);
    }
  }

  ctx.settleReferences();

  const lineNumbering = resolveLineNumbering(sections, styles);
  if (lineNumbering) ctx.intern(lineNumbering.style);
  const defaultTab = twips(val(settings, "defaultTabStop"));
  const fontTable = optional(partOf("fontTable"));
  const model: DocumentModel = {
    sections,
    headerFooters,
    notes,
    images: ctx.images,
    evenAndOddHeaders,
    ...(!settings || noHtmlAutoSpacing ? { paragraphSpacingAdds: true } : {}),
    ...(ctx.footnotesRestartEachPage || sections.some((s) => s.footnotesRestartEachPage)
      ? { footnotesRestartEachPage: { ...ctx.noteNumbering.footnote } }
      : {}),
    defaultTabStop: defaultTab !== undefined && defaultTab > 0 ? defaultTab : 36,
    fontFamilies: ctx.fontFamilies,
    fontTable: readFontTable(fontTable),
    languages: styles.languages,
  };
  if (lineNumbering) model.lineNumbering = lineNumbering;
  const embedded = readEmbeddedFonts(pkg, partOf("fontTable"), fontTable);
  if (embedded.length) model.embeddedFonts = embedded;
  const title = readTitle(pkg);
  if (title) model.title = title;
  return model;
}

/** Relationship types (last segment) of the parts the renderer reads besides the main document. */
const READ_PART_TYPES = new Set([
  "styles",
  "numbering",
  "settings",
  "theme",
  "fontTable",
  "footnotes",
  "endnotes",
  "header",
  "footer",
]);

/**
 * Refuses a document whose XML would not fit the isolate once read (LIMITS.render.maxXmlBytes),
 * from the sizes the ZIP directory declares (inflating stops at the declared size, so they bound
 * what is read). A package limit: 413 `zip_limit`, before any part is inflated.
 */
function assertRenderableSize(pkg: DocxPackage, main: string, mainRels: readonly Relationship[]): void {
  const parts = new Set([main.toLowerCase()]);
  for (const r of mainRels)
    if (!r.external && READ_PART_TYPES.has(r.type.slice(r.type.lastIndexOf("/") + 1)))
      parts.add(r.target.toLowerCase());
  let total = 0;
  for (const name of parts) total += pkg.entry(name)?.uncompressedSize ?? 0;
  const max = LIMITS.render.maxXmlBytes;
  if (total > max) {
    const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
    throw new LimitExceeded(
      "zip_limit",
      `The document is too big to render as PDF: its text and formatting parts hold ${mib(total)} MiB of XML, more than the ${mib(max)} MiB the renderer accepts.`,
    );
  }
}

/** Parses an optional part; a malformed one is skipped (limits and DTD refusals still stop the parse). */
function readOptional(pkg: DocxPackage, name: string): XNode | undefined {
  if (!pkg.has(name)) return undefined;
  try {
    return parseTree(pkg.readXml(name), name);
  } catch (err) {
    if (err instanceof SignetError && err.code === "docx_invalid") return undefined;
    throw err;
  }
}

function readFontTable(root: XNode | undefined): Map<string, FontTableEntry> {
  const out = new Map<string, FontTableEntry>();
  for (const f of root?.all("font") ?? []) {
    const name = f.attr("name");
    if (!name || out.has(name)) continue;
    const entry: FontTableEntry = { name };
    const alt = val(f, "altName");
    const family = val(f, "family");
    const pitch = val(f, "pitch");
    const panose = val(f, "panose1");
    const charset = val(f, "charset");
    if (charset) entry.charset = charset.toUpperCase();
    if (alt) entry.altName = alt;
    if (family) entry.family = family;
    if (pitch) entry.pitch = pitch;
    if (panose) entry.panose = panose;
    out.set(name, entry);
  }
  return out;
}

function readTitle(pkg: DocxPackage): string | undefined {
  const rel = pkg.relationships("").find((r) => !r.external && r.type.endsWith("/core-properties"));
  const root = readOptional(pkg, rel?.target ?? "docProps/core.xml");
  const title = root?.child("title")?.text().trim();
  return title ? title : undefined;
}
