/**
 * parseDocx on small packages built here: what the resolved model says a reader would see
 * (inherited formatting, list labels, sections, fields, tables, notes, images, Strict files).
 */
import { describe, expect, it } from "vitest";
import { strToU8, unzipSync, zipSync } from "fflate";
import { templateDocx, para, text } from "../../../test/support/docx-templates";
import { makePng } from "../../../test/support/png-images";
import { parseDocx } from "./parse-docx";
import type { Block, Inline, Paragraph, Table } from "./types";
import { SignetError } from "../../errors";

const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/** A package with extra main-part relationships (styles, numbering, theme ...) added to buildDocx's. */
function docx(
  body: string,
  parts: Record<string, string | Uint8Array> = {},
  rels: { id: string; type: string; target: string; external?: boolean }[] = [],
): Uint8Array {
  const base = unzipSync(templateDocx({ body }));
  const relXml = new TextDecoder().decode(base["word/_rels/document.xml.rels"]!);
  const known: Record<string, string> = {
    "word/styles.xml": "styles",
    "word/numbering.xml": "numbering",
    "word/theme/theme1.xml": "theme",
    "word/settings.xml": "settings",
    "word/footnotes.xml": "footnotes",
    "word/endnotes.xml": "endnotes",
    "word/fontTable.xml": "fontTable",
  };
  const all = [...rels];
  Object.keys(parts).forEach((name, i) => {
    if (known[name]) all.push({ id: `rIdX${i}`, type: known[name]!, target: name.slice(5) });
  });
  base["word/_rels/document.xml.rels"] = strToU8(
    relXml.replace(
      "</Relationships>",
      all
        .map(
          (r) =>
            `<Relationship Id="${r.id}" Type="${REL}/${r.type}" Target="${r.target}"${r.external ? ` TargetMode="External"` : ""}/>`,
        )
        .join("") + "</Relationships>",
    ),
  );
  for (const [name, content] of Object.entries(parts))
    base[name] = typeof content === "string" ? strToU8(content) : new Uint8Array(content);
  return zipSync(base);
}

const styles = (inner: string, defaults = "") =>
  `<w:styles ${W}><w:docDefaults>${defaults}</w:docDefaults>${inner}</w:styles>`;
const paras = (blocks: Block[]) => blocks.filter((b): b is Paragraph => b.type === "paragraph");
const textOf = (p: Paragraph) =>
  p.inlines.map((i) => (i.type === "text" ? i.text : i.type === "tab" ? "\t" : "")).join("");
const body = (bytes: Uint8Array) => parseDocx(bytes).sections.flatMap((s) => s.blocks);
const texts = (p: Paragraph) => p.inlines.filter((i): i is Extract<Inline, { type: "text" }> => i.type === "text");

describe("styles", () => {
  it("resolves docDefaults, basedOn chains, character styles and direct formatting", () => {
    const st = styles(
      `<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:pPr><w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr></w:style>` +
        `<w:style w:type="paragraph" w:styleId="Base"><w:name w:val="Base"/><w:basedOn w:val="Normal"/><w:pPr><w:jc w:val="center"/></w:pPr><w:rPr><w:color w:val="FF0000"/><w:sz w:val="32"/></w:rPr></w:style>` +
        `<w:style w:type="paragraph" w:styleId="Derived"><w:name w:val="Derived"/><w:basedOn w:val="Base"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr><w:rPr><w:sz w:val="28"/></w:rPr></w:style>` +
        `<w:style w:type="character" w:styleId="Emph"><w:name w:val="Emph"/><w:rPr><w:i/><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/></w:rPr></w:style>` +
        // A cycle must not hang or throw.
        `<w:style w:type="paragraph" w:styleId="LoopA"><w:name w:val="LoopA"/><w:basedOn w:val="LoopB"/></w:style><w:style w:type="paragraph" w:styleId="LoopB"><w:name w:val="LoopB"/><w:basedOn w:val="LoopA"/><w:pPr><w:jc w:val="right"/></w:pPr></w:style>`,
      `<w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:sz w:val="22"/></w:rPr></w:rPrDefault>`,
    );
    const b = paras(
      body(
        docx(
          `<w:p><w:pPr><w:pStyle w:val="Derived"/></w:pPr><w:r><w:t>a</w:t></w:r><w:r><w:rPr><w:rStyle w:val="Emph"/><w:color w:val="00FF00"/></w:rPr><w:t>b</w:t></w:r></w:p>` +
            `<w:p><w:r><w:t>plain</w:t></w:r></w:p><w:p><w:pPr><w:pStyle w:val="LoopA"/></w:pPr><w:r><w:t>loop</w:t></w:r></w:p>`,
          { "word/styles.xml": st },
        ),
      ),
    );
    const [a, em] = texts(b[0]!);
    expect(b[0]!.style).toMatchObject({
      styleId: "Derived",
      align: "center",
      indentLeft: 36,
      firstLine: -18,
      spaceAfter: 8,
    });
    expect(b[0]!.style.line.value).toBeCloseTo(259 / 240);
    expect(a).toMatchObject({ text: "a", style: { font: "Calibri", size: 14, color: "FF0000", italic: false } });
    expect(em).toMatchObject({ text: "b", style: { font: "Arial", size: 14, color: "00FF00", italic: true } });
    expect(b[1]!.style.styleId).toBe("Normal");
    expect(texts(b[1]!)[0]!.style).toMatchObject({ font: "Calibri", size: 11, color: null });
    expect(b[2]!.style.align).toBe("right");
  });

  it("toggles bold between paragraph and character styles; direct formatting is absolute", () => {
    const st = styles(
      `<w:style w:type="paragraph" w:styleId="H"><w:name w:val="H"/><w:rPr><w:b/></w:rPr></w:style><w:style w:type="character" w:styleId="Strong"><w:name w:val="Strong"/><w:rPr><w:b/></w:rPr></w:style>`,
    );
    const p = paras(
      body(
        docx(
          `<w:p><w:pPr><w:pStyle w:val="H"/></w:pPr><w:r><w:t>bold </w:t></w:r><w:r><w:rPr><w:rStyle w:val="Strong"/></w:rPr><w:t>toggled off </w:t></w:r><w:r><w:rPr><w:rStyle w:val="Strong"/><w:b/></w:rPr><w:t>direct on</w:t></w:r></w:p>`,
          { "word/styles.xml": st },
        ),
      ),
    )[0]!;
    expect(texts(p).map((t) => [t.text, t.style.bold])).toEqual([
      ["bold ", true],
      ["toggled off ", false],
      ["direct on", true],
    ]);
  });

  it("resolves theme fonts and theme colours", () => {
    const theme =
      `<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:themeElements><a:clrScheme name="x"><a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1><a:accent1><a:srgbClr val="4472C4"/></a:accent1></a:clrScheme>` +
      `<a:fontScheme name="x"><a:majorFont><a:latin typeface="Calibri Light"/></a:majorFont><a:minorFont><a:latin typeface="Calibri"/></a:minorFont></a:fontScheme></a:themeElements></a:theme>`;
    const st = styles(
      "",
      `<w:rPrDefault><w:rPr><w:rFonts w:asciiTheme="minorHAnsi" w:hAnsiTheme="minorHAnsi"/></w:rPr></w:rPrDefault>`,
    );
    const m = parseDocx(
      docx(
        `<w:p><w:r><w:t>x</w:t></w:r><w:r><w:rPr><w:rFonts w:asciiTheme="majorHAnsi" w:ascii="Arial"/><w:color w:val="auto" w:themeColor="accent1"/><w:highlight w:val="yellow"/></w:rPr><w:t>y</w:t></w:r><w:r><w:rPr><w:color w:val="2E74B5" w:themeColor="accent1" w:themeShade="BF"/></w:rPr><w:t>z</w:t></w:r></w:p>`,
        {
          "word/styles.xml": st,
          "word/theme/theme1.xml": theme,
        },
      ),
    );
    const [x, y, z] = texts(paras(m.sections[0]!.blocks)[0]!);
    expect(x!.style.font).toBe("Calibri");
    // The colour Word resolved and wrote beside the theme reference wins over our arithmetic.
    expect(z!.style.color).toBe("2E74B5");
    expect(y!.style).toMatchObject({ font: "Calibri Light", color: "4472C4", highlight: "FFFF00" });
    expect([...m.fontFamilies].sort()).toEqual(["Calibri", "Calibri Light"]);
  });

  it("takes empty East Asian and complex-script theme fonts from the theme's script list, by w:themeFontLang", () => {
    const theme =
      `<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:themeElements><a:fontScheme name="x">` +
      `<a:majorFont><a:latin typeface="Cambria"/><a:ea typeface=""/><a:cs typeface=""/><a:font script="Jpan" typeface="ＭＳ ゴシック"/><a:font script="Hans" typeface="宋体"/><a:font script="Hebr" typeface="Times New Roman"/></a:majorFont>` +
      `<a:minorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/><a:font script="Hans" typeface="宋体"/><a:font script="Arab" typeface="Arial"/></a:minorFont>` +
      `</a:fontScheme></a:themeElements></a:theme>`;
    const run = `<w:p><w:r><w:rPr><w:rFonts w:asciiTheme="majorEastAsia" w:eastAsiaTheme="minorEastAsia" w:hAnsiTheme="majorEastAsia" w:cstheme="majorBidi"/></w:rPr><w:t>x</w:t></w:r></w:p>`;
    const settings = (lang: string) => `<w:settings ${W}><w:themeFontLang w:val="en-US" ${lang}/></w:settings>`;
    const style = (lang: string) =>
      texts(paras(body(docx(run, { "word/theme/theme1.xml": theme, "word/settings.xml": settings(lang) })))[0]!)[0]!
        .style;
    expect(style(`w:eastAsia="zh-CN" w:bidi="he-IL"`)).toMatchObject({ font: "宋体", fontComplex: "Times New Roman" });
    expect(style(`w:eastAsia="ja-JP"`).font).toBe("ＭＳ ゴシック");
    // No language: nothing to choose by, as before (the run keeps the default font).
    expect(style("").font).not.toBe("宋体");
  });
});

describe("numbering", () => {
  const lvl = (i: number, fmt: string, textVal: string, extra = "") =>
    `<w:lvl w:ilvl="${i}"><w:start w:val="1"/><w:numFmt w:val="${fmt}"/><w:lvlText w:val="${textVal}"/>${extra}<w:pPr><w:ind w:left="${720 * (i + 1)}" w:hanging="360"/></w:pPr></w:lvl>`;
  const numbering =
    `<w:numbering ${W}>` +
    `<w:abstractNum w:abstractNumId="0">${lvl(0, "decimal", "%1.")}${lvl(1, "decimal", "%1.%2.")}${lvl(2, "lowerLetter", "%3)")}</w:abstractNum>` +
    `<w:abstractNum w:abstractNumId="1">${lvl(0, "lowerRoman", "%1.")}</w:abstractNum>` +
    `<w:abstractNum w:abstractNumId="2">${lvl(0, "bullet", "\uF0B7", `<w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol" w:hint="default"/></w:rPr>`)}</w:abstractNum>` +
    `<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>` +
    `<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>` +
    `<w:num w:numId="3"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>` +
    `<w:num w:numId="4"><w:abstractNumId w:val="2"/></w:num>` +
    `</w:numbering>`;
  const item = (num: number, ilvl: number, t: string, pPr = "") =>
    `<w:p><w:pPr><w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="${num}"/></w:numPr>${pPr}</w:pPr><w:r><w:t>${t}</w:t></w:r></w:p>`;

  it("counts across levels, restarts deeper levels, restarts on startOverride and formats each level", () => {
    const b = paras(
      body(
        docx(
          item(1, 0, "a") +
            item(1, 1, "b") +
            item(1, 1, "c") +
            item(1, 2, "d") +
            item(1, 0, "e") +
            item(1, 1, "f") +
            item(2, 0, "r1") +
            item(2, 0, "r2") +
            item(2, 0, "r3") +
            item(2, 0, "r4") +
            item(3, 0, "again") +
            item(1, 0, "continues shared counter") +
            item(4, 0, "bullet") +
            item(1, 0, "direct indent", `<w:ind w:left="100"/>`),
          { "word/numbering.xml": numbering },
        ),
      ),
    );
    expect(b.map((p) => p.numbering?.text)).toEqual([
      "1.",
      "1.1.",
      "1.2.",
      "a)",
      "2.",
      "2.1.",
      "i.",
      "ii.",
      "iii.",
      "iv.",
      "1.",
      "2.",
      "•",
      "3.",
    ]);
    expect(b[1]!.style).toMatchObject({ indentLeft: 72, firstLine: -18 });
    // Direct formatting beats the level's indent; the level's hanging indent stays.
    expect(b[13]!.style).toMatchObject({ indentLeft: 5, firstLine: -18 });
    // The Symbol bullet is mapped to Unicode and drawn with a text font.
    expect(b[12]!.numbering!.style.font).not.toBe("Symbol");
    expect(b[12]!.numbering!.suffix).toBe("tab");
  });

  it("takes numbering from the paragraph style", () => {
    const st = styles(
      `<w:style w:type="paragraph" w:styleId="List"><w:name w:val="List"/><w:pPr><w:numPr><w:numId w:val="2"/></w:numPr></w:pPr></w:style>`,
    );
    const b = paras(
      body(
        docx(`<w:p><w:pPr><w:pStyle w:val="List"/></w:pPr><w:r><w:t>x</w:t></w:r></w:p>`.repeat(2), {
          "word/numbering.xml": numbering,
          "word/styles.xml": st,
        }),
      ),
    );
    expect(b.map((p) => p.numbering?.text)).toEqual(["i.", "ii."]);
  });
});

describe("sections, headers and fields", () => {
  it("splits the body at paragraph sectPr and inherits header references", () => {
    const sect1 = `<w:sectPr><w:headerReference w:type="default" r:id="rIdH1"/><w:headerReference w:type="first" r:id="rIdH2"/><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1134" w:bottom="1440" w:left="1134" w:header="708" w:footer="708" w:gutter="0"/><w:cols w:num="2" w:space="720"/><w:titlePg/><w:docGrid w:type="lines" w:linePitch="312"/></w:sectPr>`;
    const sect2 = `<w:sectPr><w:type w:val="continuous"/><w:pgSz w:w="11906" w:h="16838" w:orient="landscape"/><w:pgNumType w:start="5" w:fmt="upperRoman"/></w:sectPr>`;
    const hdr = (t: string) =>
      `<w:hdr ${W}><w:p><w:r><w:t>${t}</w:t></w:r><w:fldSimple w:instr=" PAGE \\* ROMAN "><w:r><w:t>1</w:t></w:r></w:fldSimple></w:p></w:hdr>`;
    const m = parseDocx(
      docx(
        `<w:p><w:r><w:t>one</w:t></w:r></w:p><w:p><w:pPr>${sect1}</w:pPr><w:r><w:t>end one</w:t></w:r></w:p><w:p><w:pPr>${sect2}</w:pPr><w:r><w:t>two</w:t></w:r></w:p><w:p><w:r><w:t>three</w:t></w:r></w:p>`,
        { "word/h1.xml": hdr("default"), "word/h2.xml": hdr("first") },
        [
          { id: "rIdH1", type: "header", target: "h1.xml" },
          { id: "rIdH2", type: "header", target: "h2.xml" },
        ],
      ),
    );
    expect(m.sections.map((s) => s.blocks.map((b) => textOf(b as Paragraph)))).toEqual([
      ["one", "end one"],
      ["two"],
      ["three"],
    ]);
    const [s1, s2] = m.sections;
    expect(s1).toMatchObject({
      pageWidth: 595.3,
      titlePage: true,
      columns: { count: 2, space: 36 },
      headers: { default: "word/h1.xml", first: "word/h2.xml" },
    });
    expect(s1!.margins).toMatchObject({ left: 56.7, top: 72, header: 35.4 });
    expect(s1!.lineGrid).toEqual({ type: "lines", linePitch: 15.6 });
    expect(s2!.lineGrid).toBeUndefined();
    expect(s2).toMatchObject({
      start: "continuous",
      pageWidth: 841.9,
      pageHeight: 595.3,
      pageNumberStart: 5,
      pageNumberFormat: "upperRoman",
      headers: { default: "word/h1.xml", first: "word/h2.xml" },
    });
    const field = paras(m.headerFooters.get("word/h1.xml")!)[0]!.inlines[1];
    expect(field).toMatchObject({ type: "field", field: "PAGE", format: "upperRoman", fallback: "1" });
  });

  it("complex fields: PAGE/NUMPAGES become fields, other fields show their cached result, instructions are hidden", () => {
    const r = (inner: string) => `<w:r>${inner}</w:r>`;
    const fld = (instr: string, result: string) =>
      r(`<w:fldChar w:fldCharType="begin"/>`) +
      r(`<w:instrText xml:space="preserve">${instr}</w:instrText>`) +
      r(`<w:fldChar w:fldCharType="separate"/>`) +
      r(`<w:t>${result}</w:t>`) +
      r(`<w:fldChar w:fldCharType="end"/>`);
    // A nested field inside the instruction of a QUOTE field is part of the hidden instruction.
    const nested =
      r(`<w:fldChar w:fldCharType="begin"/>`) +
      r(`<w:instrText>QUOTE </w:instrText>`) +
      fld("MERGEFIELD x", "inner") +
      r(`<w:instrText> "a"</w:instrText>`) +
      r(`<w:fldChar w:fldCharType="separate"/>`) +
      r(`<w:t>shown</w:t>`) +
      r(`<w:fldChar w:fldCharType="end"/>`);
    const p = paras(
      body(
        docx(
          `<w:p>${r("<w:t>Page </w:t>")}${fld(" PAGE ", "7")}${r("<w:t> of </w:t>")}${fld("NUMPAGES \\* MERGEFORMAT", "9")}${r("<w:t> </w:t>")}${fld("DATE \\@ yyyy", "2024")}${r("<w:t> </w:t>")}${nested}</w:p>`,
        ),
      ),
    )[0]!;
    expect(
      p.inlines.map((i) => (i.type === "text" ? i.text : i.type === "field" ? `{${i.field}:${i.fallback}}` : i.type)),
    ).toEqual(["Page ", "{PAGE:7}", " of ", "{NUMPAGES:9}", " 2024 shown"]);
    const linked = paras(
      body(docx(`<w:p>${fld(' HYPERLINK "https://example.org/terms" ', "terms")}${r("<w:t> after</w:t>")}</w:p>`)),
    )[0]!;
    expect(linked.inlines).toMatchObject([
      { type: "text", text: "terms", link: "https://example.org/terms" },
      { type: "text", text: " after" },
    ]);
    expect(linked.inlines[1]).not.toHaveProperty("link");
  });
});

describe("runs, links, notes", () => {
  it("reads tabs, breaks, symbols, hyphens, tracked changes and hyperlinks", () => {
    const p = paras(
      body(
        docx(
          `<w:p><w:r><w:t>a</w:t><w:tab/><w:t>b</w:t><w:br/><w:t>c</w:t><w:br w:type="page"/><w:sym w:font="Wingdings" w:char="F0FC"/><w:noBreakHyphen/><w:softHyphen/></w:r>` +
            `<w:ins w:id="1" w:author="x"><w:r><w:t>inserted</w:t></w:r></w:ins><w:del w:id="2" w:author="x"><w:r><w:delText>deleted</w:delText></w:r></w:del>` +
            `<w:hyperlink r:id="rIdL"><w:r><w:t>link</w:t></w:r></w:hyperlink><w:hyperlink w:anchor="x"><w:r><w:t>anchor</w:t></w:r></w:hyperlink>` +
            `<w:sdt><w:sdtPr/><w:sdtContent><w:r><w:t> in control</w:t></w:r></w:sdtContent></w:sdt></w:p>`,
          {},
          [{ id: "rIdL", type: "hyperlink", target: "https://example.com/a?b=1", external: true }],
        ),
      ),
    )[0]!;
    expect(
      p.inlines.map((i) => (i.type === "text" ? i.text : i.type === "break" ? `[${i.kind}]` : `[${i.type}]`)),
    ).toEqual([
      "a",
      "[tab]",
      "b",
      "[line]",
      "c",
      "[page]",
      "✓",
      "\u2011\u00ADinserted",
      "deleted",
      "link",
      "anchor in control",
    ]);
    // A Wingdings w:sym character is drawn with OpenSymbol, as LibreOffice draws it.
    expect(p.inlines.find((i) => i.type === "text" && i.text === "✓")).toMatchObject({ style: { font: "OpenSymbol" } });
    // The soft hyphen stays as U+00AD: layout breaks there and shows a hyphen only at a line end.
    // Deleted text is shown struck through (printed with its changes, as LibreOffice and Word do).
    expect(p.inlines.find((i) => i.type === "text" && i.text === "deleted")).toMatchObject({ style: { strike: true } });
    const link = p.inlines.find((i) => i.type === "text" && i.text === "link");
    expect(link).toMatchObject({ link: "https://example.com/a?b=1" });
    expect(p.inlines.find((i) => i.type === "text" && i.text.startsWith("anchor"))).not.toHaveProperty("link");
  });

  it("numbers footnote references and parses note bodies with their label, skipping separators", () => {
    const notes =
      `<w:footnotes ${W}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>` +
      `<w:footnote w:id="2"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> First note.</w:t></w:r></w:p></w:footnote>` +
      `<w:footnote w:id="5"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> Second.</w:t></w:r></w:p></w:footnote></w:footnotes>`;
    const m = parseDocx(
      docx(
        `<w:p><w:r><w:t>x</w:t></w:r><w:r><w:footnoteReference w:id="2"/></w:r><w:r><w:t>y</w:t></w:r><w:r><w:footnoteReference w:id="5"/></w:r></w:p>`,
        { "word/footnotes.xml": notes },
      ),
    );
    const refs = paras(m.sections[0]!.blocks)[0]!.inlines.filter((i) => i.type === "noteRef");
    expect(refs).toMatchObject([
      { kind: "footnote", id: "2", label: "1" },
      { kind: "footnote", id: "5", label: "2" },
    ]);
    expect([...m.notes.keys()]).toEqual(["footnote:2", "footnote:5"]);
    expect(textOf(paras(m.notes.get("footnote:5")!)[0]!)).toBe("2 Second.");
  });
});

describe("tables", () => {
  it("reads grid, spans, vertical merges, widths, borders and table style conditional formatting", () => {
    const st = styles(
      `<w:style w:type="table" w:styleId="Grid"><w:name w:val="Grid"/><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="8" w:color="000000"/><w:insideH w:val="single" w:sz="4"/></w:tblBorders><w:tblCellMar><w:left w:w="0" w:type="dxa"/></w:tblCellMar></w:tblPr>` +
        `<w:tblStylePr w:type="firstRow"><w:rPr><w:b/></w:rPr><w:tcPr><w:shd w:val="clear" w:color="auto" w:fill="D9E2F3"/></w:tcPr></w:tblStylePr></w:style>`,
    );
    const cell = (t: string, tcPr = "") => `<w:tc><w:tcPr>${tcPr}</w:tcPr><w:p><w:r><w:t>${t}</w:t></w:r></w:p></w:tc>`;
    const tbl =
      `<w:tbl><w:tblPr><w:tblStyle w:val="Grid"/><w:tblW w:w="2500" w:type="pct"/><w:jc w:val="center"/><w:tblLook w:firstRow="1" w:lastRow="0" w:firstColumn="0" w:lastColumn="0" w:noHBand="1" w:noVBand="1"/></w:tblPr>` +
      `<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/><w:gridCol w:w="1000"/></w:tblGrid>` +
      `<w:tr><w:trPr><w:tblHeader/></w:trPr>${cell("wide", `<w:gridSpan w:val="2"/>`)}${cell("tall", `<w:vMerge w:val="restart"/><w:vAlign w:val="center"/>`)}</w:tr>` +
      `<w:tr><w:trPr><w:trHeight w:val="400" w:hRule="exact"/></w:trPr>${cell("a", `<w:tcW w:w="2000" w:type="dxa"/><w:shd w:val="clear" w:fill="FF0000"/>`)}${cell("b")}${cell("", `<w:vMerge/>`)}</w:tr></w:tbl>`;
    const t = body(docx(tbl, { "word/styles.xml": st }))[0] as Table;
    expect(t).toMatchObject({
      grid: [100, 100, 50],
      width: { type: "pct", value: 0.5 },
      align: "center",
      borders: { top: { style: "single", width: 1, color: "000000" } },
    });
    expect(t.insideBorders.horizontal).toMatchObject({ style: "single", width: 0.5 });
    const [r0, r1] = t.rows;
    expect(r0).toMatchObject({
      header: true,
      cells: [
        { gridSpan: 2, shading: "D9E2F3" },
        { vMerge: "restart", vAlign: "center" },
      ],
    });
    expect(r1).toMatchObject({
      height: { value: 20, rule: "exact" },
      cells: [{ width: 100, shading: "FF0000" }, { shading: null }, { vMerge: "continue" }],
    });
    expect(r0!.cells[0]!.margins).toEqual({ top: 0, bottom: 0, left: 0, right: 5.4 });
    expect(texts(paras(r0!.cells[0]!.blocks)[0]!)[0]!.style.bold).toBe(true);
    expect(texts(paras(r1!.cells[0]!.blocks)[0]!)[0]!.style.bold).toBe(false);
  });
});

describe("drawings", () => {
  it("loads an anchored picture with its position and wrap", () => {
    const png = makePng(4, 2);
    const drawing =
      `<w:p><w:r><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" distT="0" distB="0" distL="114300" distR="114300" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">` +
      `<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="margin"><wp:posOffset>635000</wp:posOffset></wp:positionH><wp:positionV relativeFrom="page"><wp:align>top</wp:align></wp:positionV>` +
      `<wp:extent cx="1270000" cy="635000"/><wp:wrapSquare wrapText="bothSides"/><wp:docPr id="1" name="P"/>` +
      `<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:blipFill><a:blip r:embed="rIdP"/></pic:blipFill></pic:pic></a:graphicData></a:graphic>` +
      `</wp:anchor></w:drawing></w:r></w:p>`;
    const m = parseDocx(
      docx(drawing, { "word/media/pic.png": png }, [{ id: "rIdP", type: "image", target: "media/pic.png" }]),
    );
    const img = paras(m.sections[0]!.blocks)[0]!.inlines[0]!;
    expect(img).toMatchObject({
      type: "image",
      image: "word/media/pic.png",
      width: 100,
      height: 50,
      anchor: {
        x: { relativeTo: "margin", offset: 50 },
        y: { relativeTo: "page", align: "top" },
        wrap: "square",
        behindText: false,
        distance: { left: 9, right: 9 },
      },
    });
    expect(m.images.get("word/media/pic.png")).toEqual({ bytes: png, type: "png" });
  });
});

describe("package edge cases", () => {
  it("reads Strict OOXML (purl.oclc.org namespaces) alike", () => {
    const S = "http://purl.oclc.org/ooxml";
    const files = {
      "[Content_Types].xml": `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>`,
      "_rels/.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${S}/officeDocument/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
      "word/_rels/document.xml.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${S}/officeDocument/relationships/styles" Target="styles.xml"/></Relationships>`,
      "word/styles.xml": `<w:styles xmlns:w="${S}/wordprocessingml/main"><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:rPr><w:sz w:val="24"/><w:b w:val="true"/></w:rPr></w:style></w:styles>`,
      "word/document.xml": `<w:document xmlns:w="${S}/wordprocessingml/main"><w:body><w:p><w:pPr><w:jc w:val="end"/><w:ind w:start="1440"/></w:pPr><w:r><w:t>strict</w:t></w:r></w:p><w:sectPr><w:pgSz w:w="21cm" w:h="29.7cm"/></w:sectPr></w:body></w:document>`,
    };
    const m = parseDocx(zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)]))));
    const p = paras(m.sections[0]!.blocks)[0]!;
    expect(p.style).toMatchObject({ align: "right", indentLeft: 72 });
    expect(texts(p)[0]).toMatchObject({ text: "strict", style: { size: 12, bold: true } });
    expect(m.sections[0]!.pageWidth).toBeCloseTo(595.3, 1);
  });

  it("keeps the text inside wrappers it does not know, at block and run level", () => {
    const b = paras(
      body(
        docx(
          `<x:block xmlns:x="urn:future"><w:p><x:span><w:r><w:t>kept</w:t></w:r></x:span><x:empty/></w:p></x:block>`,
        ),
      ),
    );
    expect(b.map(textOf)).toEqual(["kept"]);
  });

  it("refuses what is not a package with docx_invalid, and survives broken optional parts", () => {
    let err: unknown;
    try {
      parseDocx(strToU8("not a zip at all"));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SignetError);
    expect((err as SignetError).code).toBe("docx_invalid");
    const m = parseDocx(docx(para(text("still here")), { "word/styles.xml": "<w:styles><w:style></w:styles>" }));
    expect(textOf(paras(m.sections[0]!.blocks)[0]!)).toBe("still here");
  });
});

describe("Word's special cases", () => {
  it("a table style's formatting fills what the paragraph style leaves unset; docDefaults do not count", () => {
    const st = styles(
      `<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/></w:rPr></w:style>` +
        `<w:style w:type="paragraph" w:styleId="Quote"><w:name w:val="Quote"/><w:basedOn w:val="Normal"/><w:pPr><w:spacing w:after="240"/></w:pPr></w:style>` +
        `<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="TableGrid"/><w:pPr><w:spacing w:after="0"/></w:pPr><w:rPr><w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/><w:b/></w:rPr></w:style>`,
      `<w:pPrDefault><w:pPr><w:spacing w:after="160"/></w:pPr></w:pPrDefault>`,
    );
    const cell = (p: string) => `<w:tc>${p}</w:tc>`;
    const tbl = `<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid><w:tr>${cell(para(text("normal")))}${cell(`<w:p><w:pPr><w:pStyle w:val="Quote"/></w:pPr>${text("quote")}</w:p>`)}</w:tr></w:tbl>`;
    const [t, after] = body(docx(tbl + para(text("outside")), { "word/styles.xml": st }));
    const [c0, c1] = (t as Table).rows[0]!.cells;
    const [normal, quote] = [paras(c0!.blocks)[0]!, paras(c1!.blocks)[0]!];
    expect(normal.style.spaceAfter).toBe(0); // docDefaults' 8 pt gives way to the table style
    expect(quote.style.spaceAfter).toBe(12); // the paragraph style's own value wins
    expect(texts(normal)[0]!.style.font).toBe("Arial"); // so does the Normal style's font
    expect(texts(normal)[0]!.style.bold).toBe(true); // what the styles leave unset comes from the table
    expect((after as Paragraph).style.spaceAfter).toBe(8);
  });

  it("reads a floating table's position (w:tblpPr) as an anchor, its offsets bounded", () => {
    const tbl = (tblpPr: string) =>
      `<w:tbl><w:tblPr>${tblpPr}</w:tblPr><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc>${para(text("cell"))}</w:tc></w:tr></w:tbl>`;
    const read = (tblpPr: string) => (body(docx(tbl(tblpPr) + para(text("after"))))[0] as Table).float;
    const placed = read(
      `<w:tblpPr w:leftFromText="180" w:rightFromText="360" w:topFromText="20" w:bottomFromText="40" w:vertAnchor="text" w:tblpX="2000" w:tblpY="-300"/>`,
    );
    expect(placed?.x).toEqual({ relativeTo: "column", offset: 100 });
    expect(placed?.y).toEqual({ relativeTo: "paragraph", offset: -15 });
    expect(placed?.distance).toEqual({ top: 1, bottom: 2, left: 9, right: 18 });
    const aligned = read(`<w:tblpPr w:horzAnchor="page" w:tblpXSpec="right" w:tblpYSpec="bottom" w:tblpY="99"/>`);
    expect(aligned?.x).toEqual({ relativeTo: "page", align: "right" });
    expect(aligned?.y).toEqual({ relativeTo: "margin", align: "bottom" });
    const hostile = read(`<w:tblpPr w:tblpX="99999999" w:tblpY="-99999999" w:leftFromText="-500"/>`);
    expect(hostile?.x.offset).toBe(1584);
    expect(hostile?.y.offset).toBe(-1584);
    expect(hostile?.distance.left).toBe(0);
    expect(read("")).toBeUndefined();
  });

  it("a table style replaces the Normal style's 11 or 12 pt and left alignment unless the document says otherwise", () => {
    const st = styles(
      `<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:pPr><w:jc w:val="left"/></w:pPr><w:rPr><w:sz w:val="22"/></w:rPr></w:style>` +
        `<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="TableGrid"/><w:pPr><w:jc w:val="center"/></w:pPr><w:rPr><w:sz w:val="32"/></w:rPr></w:style>`,
    );
    const tbl = `<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc>${para(text("cell"))}</w:tc></w:tr></w:tbl>`;
    const cellParagraph = (settings?: string) => {
      const parts: Record<string, string> = { "word/styles.xml": st };
      if (settings) parts["word/settings.xml"] = settings;
      const [t] = body(docx(tbl, parts));
      return paras((t as Table).rows[0]!.cells[0]!.blocks)[0]!;
    };
    const legacy = cellParagraph();
    expect(legacy.style.align).toBe("center");
    expect(texts(legacy)[0]!.style.size).toBe(16);
    const modern = cellParagraph(
      `<w:settings ${W}><w:compat><w:compatSetting w:name="overrideTableStyleFontSizeAndJustification" w:uri="http://schemas.microsoft.com/office/word" w:val="1"/></w:compat></w:settings>`,
    );
    expect(modern.style.align).toBe("left");
    expect(texts(modern)[0]!.style.size).toBe(11);
  });

  it("numbers headings whose style names the list and whose level names the style", () => {
    const numbering =
      `<w:numbering ${W}><w:abstractNum w:abstractNumId="0">` +
      `<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperRoman"/><w:pStyle w:val="Heading1"/><w:lvlText w:val="%1."/></w:lvl>` +
      `<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="upperLetter"/><w:pStyle w:val="Heading2"/><w:lvlText w:val="%1.%2"/><w:suff w:val="space"/></w:lvl>` +
      `<w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2.%3"/><w:isLgl/></w:lvl>` +
      `</w:abstractNum><w:num w:numId="7"><w:abstractNumId w:val="0"/></w:num></w:numbering>`;
    const st = styles(
      `<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="Heading1"/><w:pPr><w:numPr><w:numId w:val="7"/></w:numPr></w:pPr></w:style>` +
        `<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="Heading2"/><w:pPr><w:numPr><w:numId w:val="7"/></w:numPr></w:pPr></w:style>`,
    );
    const h = (style: string) => `<w:p><w:pPr><w:pStyle w:val="${style}"/></w:pPr>${text(style)}</w:p>`;
    const legal = `<w:p><w:pPr><w:numPr><w:ilvl w:val="2"/><w:numId w:val="7"/></w:numPr></w:pPr>${text("legal")}</w:p>`;
    const b = paras(
      body(
        docx(h("Heading1") + h("Heading2") + h("Heading2") + legal + h("Heading1") + h("Heading2"), {
          "word/styles.xml": st,
          "word/numbering.xml": numbering,
        }),
      ),
    );
    expect(b.map((p) => p.numbering?.text)).toEqual(["I.", "I.A", "I.B", "1.2.1", "II.", "II.A"]);
    expect(b[1]!.numbering!.suffix).toBe("space");
  });

  it("reads a DrawingML text box (mc:AlternateContent) as a box holding its paragraphs", () => {
    const box =
      `<w:p><w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="wps"><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="1270000" cy="254000"/>` +
      `<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:spPr><a:solidFill><a:srgbClr val="FFEECC"/></a:solidFill></wps:spPr>` +
      `<wps:txbx><w:txbxContent><w:p><w:r><w:t>inside the box</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:inline></w:drawing></mc:Choice>` +
      `<mc:Fallback><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="width:100pt;height:20pt"><v:textbox><w:txbxContent><w:p><w:r><w:t>fallback copy</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`;
    const inline = paras(body(docx(box)))[0]!.inlines;
    expect(inline).toHaveLength(1);
    expect(inline[0]).toMatchObject({ type: "box", width: 100, height: 20, fill: "FFEECC" });
    expect(textOf(paras((inline[0] as Extract<Inline, { type: "box" }>).blocks)[0]!)).toBe("inside the box");
  });

  it("reads a group as a box of its parts, each text box at its place; a rotated part or too many make it one box of their text", () => {
    const E = 12700;
    const part = (y: number, text: string, rot = 0) =>
      `<wps:wsp><wps:spPr><a:xfrm${rot ? ` rot="${rot}"` : ""}><a:off x="0" y="${y * E}"/><a:ext cx="${200 * E}" cy="${40 * E}"/></a:xfrm><a:prstGeom prst="rect"/></wps:spPr>` +
      `<wps:txbx><w:txbxContent><w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>${text}</w:t></w:r></w:p></w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp>`;
    const numbering =
      `<w:numbering ${W}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl></w:abstractNum>` +
      `<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`;
    const group = (parts: string) =>
      `<w:p><w:r><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" simplePos="0" behindDoc="0">` +
      `<wp:positionH relativeFrom="page"><wp:posOffset>${72 * E}</wp:posOffset></wp:positionH><wp:positionV relativeFrom="page"><wp:posOffset>${100 * E}</wp:posOffset></wp:positionV>` +
      `<wp:extent cx="${100 * E}" cy="${60 * E}"/><wp:wrapNone/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup">` +
      `<wpg:wgp xmlns:wpg="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">${parts}</wpg:wgp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r></w:p>`;
    // Children span 200 x 120 units on a 100 x 60 pt extent: half scale; the lower box comes first in the XML.
    const [split] = paras(body(docx(group(part(80, "lower") + part(0, "upper")), { "word/numbering.xml": numbering })));
    const [box] = split!.inlines as Extract<Inline, { type: "box" }>[];
    expect(split!.inlines).toHaveLength(1);
    expect(box).toMatchObject({
      width: 100,
      height: 60,
      blocks: [],
      anchor: { x: { offset: 72 }, y: { offset: 100 } },
    });
    expect(
      box!.parts!.map((p) => {
        const b = p.inline as Extract<Inline, { type: "box" }>;
        return [textOf(paras(b.blocks)[0]!), p.x, p.y, b.width, b.height];
      }),
    ).toEqual([
      ["lower", 0, 40, 100, 20],
      ["upper", 0, 0, 100, 20],
    ]);
    const one = (parts: string) =>
      paras(body(docx(group(parts), { "word/numbering.xml": numbering })))[0]!.inlines as Extract<
        Inline,
        { type: "box" }
      >[];
    // Read once (its list numbers counted once): the group's text is not read part by part first.
    const rotated = one(part(80, "lower") + part(0, "upper", 5400000));
    expect(rotated).toHaveLength(1);
    expect(rotated[0]!.parts).toBeUndefined();
    expect(paras(rotated[0]!.blocks).map((p) => `${p.numbering?.text} ${textOf(p)}`)).toEqual(["1. lower", "2. upper"]);
    expect(one(Array.from({ length: 201 }, (_, i) => part(i, `p${i}`)).join(""))).toHaveLength(1);
  });

  it("refuses tables nested beyond the limit with docx_invalid instead of recursing", () => {
    let nested = para(text("core"));
    for (let i = 0; i < 40; i++)
      nested = `<w:tbl><w:tblGrid><w:gridCol w:w="100"/></w:tblGrid><w:tr><w:tc>${nested}</w:tc></w:tr></w:tbl><w:p/>`;
    expect(() => parseDocx(docx(nested))).toThrow(expect.objectContaining({ code: "docx_invalid" }));
  });
});

describe("symbol fonts and note numbering", () => {
  it("maps text typed in Wingdings or Symbol to Unicode drawn with the paragraph's font", () => {
    const st = styles(
      "",
      `<w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/></w:rPr></w:rPrDefault>`,
    );
    const p = paras(
      body(
        docx(
          `<w:p><w:r><w:rPr><w:rFonts w:ascii="Wingdings" w:hAnsi="Wingdings"/></w:rPr><w:t>üo</w:t></w:r><w:r><w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol"/></w:rPr><w:t>ab</w:t></w:r></w:p>`,
          { "word/styles.xml": st },
        ),
      ),
    )[0]!;
    expect(texts(p).map((t) => [t.text, t.style.font])).toEqual([["✓□αβ", "Calibri"]]);
  });

  it("numbers footnotes in the format and from the start settings.xml gives", () => {
    const settings = `<w:settings ${W}><w:footnotePr><w:numFmt w:val="lowerLetter"/><w:numStart w:val="3"/></w:footnotePr></w:settings>`;
    const m = parseDocx(
      docx(`<w:p><w:r><w:footnoteReference w:id="1"/></w:r><w:r><w:footnoteReference w:id="2"/></w:r></w:p>`, {
        "word/settings.xml": settings,
      }),
    );
    expect(paras(m.sections[0]!.blocks)[0]!.inlines.map((i) => (i.type === "noteRef" ? i.label : ""))).toEqual([
      "c",
      "d",
    ]);
  });
});
