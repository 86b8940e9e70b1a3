import { env } from "cloudflare:test";
import { strToU8, zipSync, type Zippable } from "fflate";
import { describe, expect, it } from "vitest";
import { sniffDocumentType } from "./sniff";

const BASE = env.FIXTURE_BASE_URL;

async function get(path: string): Promise<Uint8Array> {
  const res = await fetch(`${BASE}${path}`);
  expect(res.status, path).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

const CT_DOCX = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
  <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
  <Default Extension="xml" ContentType="application/xml"/>
  <Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>`;

function rels(
  target: string,
  type = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument",
  extra = "",
): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
  <Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>
  <Relationship Id="rId1" Type="${type}" Target="${target}"${extra}/>
</Relationships>`;
}

const DOC_XML = `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Hello</w:t></w:r></w:p></w:body></w:document>`;

function docx(overrides: Record<string, string | Uint8Array | null> = {}, level: 0 | 6 = 6): Uint8Array {
  const files: Record<string, string | Uint8Array | null> = {
    "[Content_Types].xml": CT_DOCX,
    "_rels/.rels": rels("word/document.xml"),
    "word/document.xml": DOC_XML,
    ...overrides,
  };
  const z: Zippable = {};
  for (const [name, v] of Object.entries(files)) {
    if (v === null) continue;
    z[name] = [typeof v === "string" ? strToU8(v) : v, { level }];
  }
  return zipSync(z);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Offset of the central directory entry for `name`. */
function cdEntryOffset(zip: Uint8Array, name: string): number {
  const enc = strToU8(name);
  for (let i = 0; i < zip.length - 46; i++) {
    if (zip[i] === 0x50 && zip[i + 1] === 0x4b && zip[i + 2] === 0x01 && zip[i + 3] === 0x02) {
      const len = zip[i + 28]! | (zip[i + 29]! << 8);
      if (len === enc.length && enc.every((b, k) => zip[i + 46 + k] === b)) return i;
    }
  }
  throw new Error(`no central directory entry ${name}`);
}

describe("sniffDocumentType: real corpus files", () => {
  it("recognizes every plain corpus PDF (including leading junk and offset starts)", async () => {
    const names = JSON.parse(new TextDecoder().decode(await get("/pdf/"))) as string[];
    expect(names.length).toBeGreaterThan(30);
    for (const name of names) {
      expect(sniffDocumentType(await get(`/pdf/${name}`)), name).toBe("pdf");
    }
  });

  it("recognizes every corpus DOCX (including Strict OOXML)", async () => {
    const names = JSON.parse(new TextDecoder().decode(await get("/docx/"))) as string[];
    expect(names).toContain("openxmlsdk__Strict01.docx");
    for (const name of names) {
      expect(sniffDocumentType(await get(`/docx/${name}`)), name).toBe("docx");
    }
  });

  it("recognizes the fixture PNG and refuses path traversal on the fixture server", async () => {
    expect(sniffDocumentType(await get("/png"))).toBe("png");
    const res = await fetch(`${BASE}/pdf/..%2F..%2Fcorpus%2FMANIFEST.tsv`);
    expect(res.status).toBe(400);
    await res.arrayBuffer();
  });
});

describe("sniffDocumentType: signatures", () => {
  const b = (...xs: number[]) => new Uint8Array(xs);
  it("identifies images, PDFs and unknown bytes", () => {
    expect(sniffDocumentType(b(0xff, 0xd8, 0xff, 0xe0, 0, 0x10))).toBe("jpeg");
    expect(sniffDocumentType(strToU8("GIF89a\x01\x00\x01\x00"))).toBe("gif");
    expect(sniffDocumentType(strToU8("GIF87a\x01\x00\x01\x00"))).toBe("gif");
    expect(sniffDocumentType(strToU8("%PDF-1.7\n"))).toBe("pdf");
    expect(sniffDocumentType(strToU8(`${" ".repeat(1019)}%PDF-`))).toBe("pdf");
    expect(sniffDocumentType(strToU8(`${" ".repeat(1020)}%PDF-`))).toBe("unknown");
    expect(sniffDocumentType(strToU8("%PDF"))).toBe("unknown");
    expect(sniffDocumentType(strToU8("hello world"))).toBe("unknown");
    expect(sniffDocumentType(new Uint8Array(0))).toBe("unknown");
    expect(sniffDocumentType(strToU8("<html>%PDF-1.4</html>"))).toBe("pdf");
  });

  it("calls a PNG a PNG even when %PDF- appears in its first kilobyte", () => {
    const png = concat(b(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), strToU8("tEXt%PDF-1.4"));
    expect(sniffDocumentType(png)).toBe("png");
  });
});

describe("sniffDocumentType: ZIP and DOCX", () => {
  it("recognizes a minimal DOCX, deflated or stored", () => {
    expect(sniffDocumentType(docx())).toBe("docx");
    expect(sniffDocumentType(docx({}, 0))).toBe("docx");
  });

  it("follows the relationship target, wherever the main part is", () => {
    const moved = docx({
      "_rels/.rels": rels("/content/main.xml"),
      "word/document.xml": null,
      "content/main.xml": DOC_XML,
      "[Content_Types].xml": CT_DOCX.replace("/word/document.xml", "/content/main.xml"),
    });
    expect(sniffDocumentType(moved)).toBe("docx");
    expect(sniffDocumentType(docx({ "_rels/.rels": rels("./word/../word/document.xml") }))).toBe("docx");
    expect(sniffDocumentType(docx({ "_rels/.rels": rels("word/document%2Exml") }))).toBe("docx");
    const strict = rels("word/document.xml", "http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument");
    expect(sniffDocumentType(docx({ "_rels/.rels": strict }))).toBe("docx");
    // Part names are case-insensitive in OPC.
    expect(sniffDocumentType(docx({ "_rels/.rels": rels("Word/Document.XML") }))).toBe("docx");
    // Missing [Content_Types].xml: decided by the relationship alone.
    expect(sniffDocumentType(docx({ "[Content_Types].xml": null }))).toBe("docx");
  });

  it("calls other ZIPs zip", () => {
    expect(sniffDocumentType(zipSync({ "a.txt": strToU8("hello") }))).toBe("zip");
    expect(sniffDocumentType(zipSync({}))).toBe("zip");
    expect(sniffDocumentType(docx({ "_rels/.rels": null }))).toBe("zip");
    // The target part must exist.
    expect(sniffDocumentType(docx({ "word/document.xml": null }))).toBe("zip");
    // External targets and other relationship types do not count.
    expect(sniffDocumentType(docx({ "_rels/.rels": rels("https://example.com/word/document.xml") }))).toBe("zip");
    expect(
      sniffDocumentType(docx({ "_rels/.rels": rels("word/document.xml", undefined, ' TargetMode="External"') })),
    ).toBe("zip");
    expect(
      sniffDocumentType(
        docx({
          "_rels/.rels": rels(
            "word/document.xml",
            "http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties",
          ),
        }),
      ),
    ).toBe("zip");
    // An XLSX has an officeDocument relationship too, but a spreadsheet main part.
    const xlsx = docx({
      "_rels/.rels": rels("xl/workbook.xml"),
      "word/document.xml": null,
      "xl/workbook.xml": "<workbook/>",
      "[Content_Types].xml": CT_DOCX.replace("/word/document.xml", "/xl/workbook.xml").replace(
        "wordprocessingml.document.main+xml",
        "spreadsheetml.sheet.main+xml",
      ),
    });
    expect(sniffDocumentType(xlsx)).toBe("zip");
    // A ZIP whose first entry is a stored PDF is a ZIP, not a PDF.
    const pdfInZip = zipSync({ "a.pdf": [strToU8("%PDF-1.7\n%%EOF\n"), { level: 0 }] });
    expect(sniffDocumentType(pdfInZip)).toBe("zip");
  });

  it("recognizes a DOCX behind a prefix (self-extracting layout)", () => {
    expect(sniffDocumentType(concat(strToU8("MZ stub ".repeat(10)), docx()))).toBe("docx");
  });

  it("reads a padded _rels/.rels below the inflate cap", () => {
    const padded = new Uint8Array(200 * 1024).fill(0x20);
    padded.set(strToU8(rels("word/document.xml")));
    expect(sniffDocumentType(docx({ "_rels/.rels": padded }))).toBe("docx");
  });

  it("survives a zip bomb in _rels/.rels (the capped inflate stops it)", () => {
    // 64 MiB of a valid-looking .rels: inflating it all would be the attack.
    const huge = new Uint8Array(64 * 1024 * 1024).fill(0x20);
    huge.set(strToU8(rels("word/document.xml")));
    const bomb = docx({ "_rels/.rels": huge });
    expect(bomb.length).toBeLessThan(200 * 1024);
    expect(sniffDocumentType(bomb)).toBe("zip");
  });

  it("does not trust declared sizes", () => {
    const huge = new Uint8Array(8 * 1024 * 1024).fill(0x20);
    huge.set(strToU8(rels("word/document.xml")));
    const bomb = docx({ "_rels/.rels": huge });
    const cd = cdEntryOffset(bomb, "_rels/.rels");
    // Claim the part inflates to 300 bytes.
    bomb[cd + 24] = 0x2c;
    bomb[cd + 25] = 0x01;
    bomb[cd + 26] = 0;
    bomb[cd + 27] = 0;
    expect(sniffDocumentType(bomb)).toBe("zip");
  });

  it("never throws on hostile or broken archives", () => {
    const good = docx();
    // Truncations.
    for (const n of [4, 30, 100, good.length - 30, good.length - 1]) {
      expect(["zip", "docx"]).toContain(sniffDocumentType(good.subarray(0, n)));
    }
    // End record claiming 65535 entries and a central directory past the end.
    const eocd = new Uint8Array(22);
    eocd.set([
      0x50, 0x4b, 0x05, 0x06, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f, 0, 0,
    ]);
    expect(sniffDocumentType(concat(strToU8("PK\x03\x04"), new Uint8Array(100), eocd))).toBe("zip");
    // ZIP64 markers with a bogus locator.
    const z64 = eocd.slice();
    z64.set([0xff, 0xff, 0xff, 0xff], 12);
    z64.set([0xff, 0xff, 0xff, 0xff], 16);
    expect(sniffDocumentType(concat(strToU8("PK\x03\x04"), new Uint8Array(100), z64))).toBe("zip");
    // Random corruption of a real DOCX.
    let seed = 42;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / 0x1000000;
    for (let round = 0; round < 300; round++) {
      const copy = good.slice();
      for (let k = 0; k < 8; k++) copy[Math.floor(rnd() * copy.length)] = Math.floor(rnd() * 256);
      expect(() => sniffDocumentType(copy)).not.toThrow();
    }
  });
});
