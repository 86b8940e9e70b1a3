/**
 * The test support the renderer is measured with: DOCX packages built by test/support/docx-builder
 * open in LibreOffice with every feature they declare (styles, numbering, tables, header/footer
 * fields, footnotes, images, sections), LibreOffice renders Office fonts with the same substitutes
 * Signet uses, and word boxes come back in page coordinates.
 */
import { describe, expect, it } from "vitest";
import {
  A4,
  buildDocx,
  field,
  footnote,
  footnoteRef,
  inlineImage,
  LETTER,
  numbering,
  numberingPart,
  p,
  pageBreak,
  r,
  sectionBreak,
  sectPr,
  table,
  DEFAULT_STYLES,
  style,
} from "../support/docx-builder";
import { unzipSync, strFromU8 } from "fflate";
import { makePng } from "../support/png-images";
import {
  convertWithLibreOffice,
  fontMatches,
  libreOfficeAvailable,
  parseBboxHtml,
  pdfFonts,
  pdfPageCount,
  pdfText,
  wordBoxes,
  type PageWords,
} from "./support/libreoffice";

const haveLibreOffice = await libreOfficeAvailable();

const find = (pages: PageWords[], text: string) =>
  pages.flatMap((pg, page) => pg.words.filter((w) => w.text === text).map((w) => ({ ...w, page })));

describe("docx-builder", () => {
  it("gives the same bytes for the same parts, and well-formed parts with the declared relationships", () => {
    const parts = { body: p("Hello"), headers: { rIdH: p("Head") }, media: { rIdImg: makePng(4, 4) }, title: "T & C" };
    const a = buildDocx(parts);
    expect(buildDocx(parts)).toEqual(a);
    const files = unzipSync(a);
    expect(Object.keys(files)).toContain("word/header1.xml");
    expect(Object.keys(files)).toContain("word/media/rIdImg.png");
    const rels = strFromU8(files["word/_rels/document.xml.rels"]!);
    expect(rels).toMatch(/Id="rIdH"[^>]*Target="header1.xml"/);
    expect(strFromU8(files["docProps/core.xml"]!)).toContain("<dc:title>T &amp; C</dc:title>");
    // A default final section is added when the body has none.
    expect(strFromU8(files["word/document.xml"]!)).toMatch(
      /<w:pgSz w:w="12240" w:h="15840"\/>.*<\/w:sectPr><\/w:body>/,
    );
  });

  it("writes text with tabs and breaks as w:tab / w:br and escapes markup", () => {
    expect(r("a\tb\nc<&>")).toBe(
      `<w:r><w:t xml:space="preserve">a</w:t><w:tab/><w:t xml:space="preserve">b</w:t><w:br/><w:t xml:space="preserve">c&lt;&amp;&gt;</w:t></w:r>`,
    );
  });
});

describe("pdftotext -bbox parsing", () => {
  it("reads page sizes, boxes and entity-encoded words", () => {
    const html =
      `<doc><page width="595.3" height="841.9"><word xMin="72.0" yMin="80.5" xMax="90.25" yMax="95.0">R&amp;D</word>` +
      `<word xMin="1" yMin="2" xMax="3" yMax="4">&lt;x&gt;&#233;</word></page><page width="612" height="792"></page></doc>`;
    expect(parseBboxHtml(html)).toEqual([
      {
        width: 595.3,
        height: 841.9,
        words: [
          { text: "R&D", xMin: 72, yMin: 80.5, xMax: 90.25, yMax: 95 },
          { text: "<x>é", xMin: 1, yMin: 2, xMax: 3, yMax: 4 },
        ],
      },
      { width: 612, height: 792, words: [] },
    ]);
  });
});

describe.skipIf(!haveLibreOffice)("LibreOffice with our fonts", () => {
  it("resolves the Office families to the substitutes Signet embeds", async () => {
    expect((await fontMatches("Calibri"))[0]).toBe("Carlito");
    expect((await fontMatches("Cambria"))[0]).toBe("Caladea");
    expect((await fontMatches("Arial"))[0]).toBe("Arimo");
    expect((await fontMatches("Times New Roman"))[0]).toBe("Tinos");
    expect((await fontMatches("Courier New"))[0]).toBe("Cousine");
  });

  it("kills a conversion that runs past its time limit, and the next one still works", async () => {
    const docx = buildDocx({ body: p("Aftertimeout") });
    // No LibreOffice starts and converts in 50 ms: this forces the time-limit path.
    await expect(convertWithLibreOffice(docx, { timeoutMs: 50 })).rejects.toThrow(/timed out/);
    expect(await pdfText(await convertWithLibreOffice(docx))).toContain("Aftertimeout");
  });

  it("converts a built DOCX with every declared feature, and returns word boxes in page coordinates", async () => {
    const list = numbering({
      numId: 1,
      levels: [
        { fmt: "decimal", text: "%1." },
        { fmt: "lowerLetter", text: "(%2)" },
      ],
    });
    const docx = buildDocx({
      title: "Support check",
      styles: DEFAULT_STYLES + style({ id: "Quote", basedOn: "Normal", rPr: `<w:i/>` }),
      numbering: numberingPart(list),
      footnotes: footnote(1, "Footnoteword here."),
      media: { rIdLogo: makePng(40, 20) },
      headers: { rIdH: p(["Headerword"], { style: "Header" }) },
      footers: { rIdF: p(["Page ", field("PAGE"), " of ", field("NUMPAGES")], { style: "Footer" }) },
      body:
        p("Heading Alpha", { style: "Heading1" }) +
        p([
          r("Calibriword "),
          r("Arialword", { font: "Arial" }),
          r(" Timesword", { font: "Times New Roman" }),
          footnoteRef(1),
        ]) +
        p("Firstclause", { numId: 1 }) +
        p("Subclause", { numId: 1, ilvl: 1 }) +
        p("Secondclause", { numId: 1 }) +
        table([["Cellone", "Celltwo"], [{ content: "Spanning", gridSpan: 2 }]], { widths: [3000, 3000] }) +
        p([inlineImage("rIdLogo", 40, 20)]) +
        p("Quoted", { style: "Quote" }) +
        // First section: A4 with header/footer.
        sectionBreak({ ...A4, headers: { default: "rIdH" }, footers: { default: "rIdF" } }) +
        p(["Landscapeword", pageBreak(), "Lastpage"]) +
        sectPr({
          ...LETTER,
          width: LETTER.height,
          height: LETTER.width,
          landscape: true,
          footers: { default: "rIdF" },
        }),
    });

    const pdf = await convertWithLibreOffice(docx);
    expect(await pdfPageCount(pdf)).toBe(3);
    const pages = await wordBoxes(pdf);
    expect(pages.map((pg) => [Math.round(pg.width), Math.round(pg.height)])).toEqual([
      [595, 842],
      [792, 612],
      [792, 612],
    ]);

    // Left margin 1440 twips = 72 pt; the first body line sits below the 1" top margin.
    const heading = find(pages, "Alpha")[0]!;
    expect(find(pages, "Heading")[0]!.xMin).toBeCloseTo(72, 0);
    expect(heading.page).toBe(0);
    expect(heading.yMin).toBeGreaterThan(72);
    // Numbering: "1." and "2." precede the clauses, "(a)" the sub-clause, indented further.
    const text = await pdfText(pdf);
    expect(text).toMatch(/1\.\s+Firstclause/);
    expect(text).toMatch(/\(a\)\s+Subclause/);
    expect(text).toMatch(/2\.\s+Secondclause/);
    expect(find(pages, "Subclause")[0]!.xMin).toBeGreaterThan(find(pages, "Firstclause")[0]!.xMin + 20);
    // Table cells side by side; the footnote at the bottom of page 1; the header on every
    // page: a section without its own header reference inherits the previous section's (Word's rule).
    expect(find(pages, "Celltwo")[0]!.yMin).toBeCloseTo(find(pages, "Cellone")[0]!.yMin, 0);
    expect(find(pages, "Celltwo")[0]!.xMin).toBeGreaterThan(find(pages, "Cellone")[0]!.xMin + 100);
    expect(find(pages, "Footnoteword")[0]!.yMin).toBeGreaterThan(pages[0]!.height / 2);
    expect(find(pages, "Headerword").map((w) => w.page)).toEqual([0, 1, 2]);
    // PAGE / NUMPAGES computed per page; the page break moved "Lastpage" to page 3.
    expect(text).toContain("Page 1 of 3");
    expect(text).toContain("Page 3 of 3");
    expect(find(pages, "Lastpage")[0]!.page).toBe(2);

    // The picture is drawn as an image XObject.
    expect(new TextDecoder("latin1").decode(pdf)).toMatch(/\/Subtype\s*\/Image/);

    // The same substitutes Signet embeds, none of the system's Liberation fonts.
    const fonts = (await pdfFonts(pdf)).map((f) => f.name);
    expect(fonts).toContain("Carlito-Regular");
    expect(fonts).toContain("Arimo-Regular");
    expect(fonts).toContain("Tinos-Regular");
    expect(fonts).toContain("Caladea-Bold"); // Heading 1 is Cambria bold
    expect(fonts.some((f) => f.startsWith("Liberation"))).toBe(false);
  });
});
