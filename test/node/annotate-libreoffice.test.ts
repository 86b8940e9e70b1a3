/**
 * Every annotate output must open in LibreOffice: filled templates (Word and SuperDoc controls of
 * every type in body, table, header, footer), a round trip, a SuperDoc e-sign flow, and the
 * corpus DOCX files with content controls. `soffice --headless --convert-to pdf` renders them
 * (one call per test, its own profile), `pdftotext` shows that the values are where they should be.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { strFromU8, unzipSync } from "fflate";
import { DocxTemplate } from "../../src/docx/template";
import type { TemplateField } from "../../src/docx/fields";
import type { PreparedImage } from "../../src/docx/fill";
import { readImageInfo } from "../../src/docx/images";
import * as T from "../support/docx-templates";
import { base64Bytes, dataUri, makePng } from "../support/png-images";

const run = promisify(execFile);
const CORPUS = new URL("../../../shared/corpus/", import.meta.url).pathname;

function hasTool(cmd: string): boolean {
  return (process.env.PATH ?? "").split(":").some((d) => existsSync(join(d, cmd)));
}
const haveTools = hasTool("soffice") && hasTool("pdftotext");
if (!haveTools) {
  if (process.env.CI)
    throw new Error("soffice/pdftotext missing in CI: .ci/run installs libreoffice-writer-nogui and poppler-utils");
  console.warn(
    "SKIPPED annotate LibreOffice tests: soffice or pdftotext is not installed (apt-get install -y libreoffice-writer-nogui poppler-utils)",
  );
}

const work = mkdtempSync(join(tmpdir(), "signet-lo-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * Converts DOCX files to PDF in one soffice run with a fresh profile; returns each PDF's text (null if
 * none), laid out as on the page, or with `-raw` in the order it is drawn (a word wrapped inside a
 * narrow cell then continues on the next line instead of beside its neighbours' pieces).
 */
async function renderAll(
  files: Record<string, Uint8Array>,
  mode: "-layout" | "-raw" = "-layout",
): Promise<Record<string, string | null>> {
  const dir = mkdtempSync(join(work, "run-"));
  const profile = mkdtempSync(join(tmpdir(), "lo-"));
  const paths = Object.entries(files).map(([name, bytes]) => {
    const p = join(dir, `${name}.docx`);
    writeFileSync(p, bytes);
    return p;
  });
  try {
    await run(
      "soffice",
      [`-env:UserInstallation=file://${profile}`, "--headless", "--convert-to", "pdf", "--outdir", dir, ...paths],
      {
        timeout: 600_000,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
  const out: Record<string, string | null> = {};
  for (const name of Object.keys(files)) {
    const pdf = join(dir, `${name}.pdf`);
    out[name] = existsSync(pdf)
      ? (await run("pdftotext", [mode, pdf, "-"], { maxBuffer: 64 * 1024 * 1024 })).stdout
      : null;
  }
  return out;
}

async function imageCount(pdfDir: string, name: string): Promise<number> {
  const { stdout } = await run("pdfimages", ["-list", join(pdfDir, `${name}.pdf`)]);
  return stdout.trim().split("\n").length - 2;
}

/** Fills with the engine as the operation does (images decoded here from data URIs). */
function fill(template: Uint8Array, fields: Record<string, unknown>[]): Uint8Array {
  const t = DocxTemplate.open(template);
  const typed = fields.map((f) => ({ ...f, id: f.id === undefined ? undefined : String(f.id) })) as TemplateField[];
  const images = new Map<number, PreparedImage>();
  typed.forEach((f, i) => {
    if ((f.type === "image" || f.type === "signature") && typeof f.value === "string" && f.value.startsWith("data:")) {
      const bytes = base64Bytes(f.value.slice(f.value.indexOf(",") + 1));
      images.set(i, { key: f.value, bytes, info: readImageInfo(bytes) });
    }
  });
  const { segments } = t.fill(typed, images);
  return new Uint8Array(Buffer.concat(segments));
}

const squash = (s: string) => s.replace(/\s+/g, " ");

/**
 * Which parts of a package a document of `pages` pages shows: the body always; a header or footer by
 * the reference that names it: `first` on a section's first page when it has w:titlePg, `default` on
 * the others (so with w:titlePg only from page 2), `even` on even pages with w:evenAndOddHeaders.
 */
function headerFooterShown(docx: Uint8Array, pages: number): (part: string) => boolean {
  const files = unzipSync(docx);
  const text = (p: string) => (files[p] ? strFromU8(files[p]!) : "");
  const targets = new Map<string, string>();
  for (const m of text("word/_rels/document.xml.rels").matchAll(/<Relationship\b[^>]*>/g)) {
    const id = /\bId="([^"]+)"/.exec(m[0])?.[1];
    const target = /\bTarget="([^"]+)"/.exec(m[0])?.[1];
    if (id && target) targets.set(id, "word/" + target.replace(/^\/?word\//, ""));
  }
  const evenAndOdd = /<w:evenAndOddHeaders(?!\s+w:val="(?:0|false)")[\s/>]/.test(text("word/settings.xml"));
  const shown = new Set<string>();
  for (const sect of text("word/document.xml").matchAll(/<w:sectPr\b[\s\S]*?<\/w:sectPr>/g)) {
    const titlePage = /<w:titlePg(?!\s+w:val="(?:0|false)")[\s/>]/.test(sect[0]);
    for (const ref of sect[0].matchAll(/<w:(?:header|footer)Reference\b[^>]*>/g)) {
      const type = /w:type="(\w+)"/.exec(ref[0])?.[1] ?? "default";
      const part = targets.get(/r:id="([^"]+)"/.exec(ref[0])?.[1] ?? "");
      const drawn = type === "first" ? titlePage : type === "even" ? evenAndOdd && pages > 1 : !titlePage || pages > 1;
      if (part && drawn) shown.add(part);
    }
  }
  return (part) => !/^word\/(header|footer)\d*\.xml$/.test(part) || shown.has(part);
}

/**
 * Whether the end of `xml` lies in a later row of a table nested in a row of exact height: the row is
 * as tall as it says and clips the rest (Word and LibreOffice alike draw only what fits, here the
 * nested table's first row).
 */
function inClippedNestedRow(xml: string): boolean {
  const stack: { tag: string; rows: number; exact: boolean }[] = [];
  for (const m of xml.matchAll(/<(\/?)w:(tbl|tr|tc)[\s>]|<w:trHeight [^>]*w:hRule="exact"/g)) {
    if (!m[2]) {
      const row = stack.findLast((e) => e.tag === "tr");
      if (row) row.exact = true;
      continue;
    }
    if (m[1]) {
      while (stack.length && stack.pop()!.tag !== m[2]);
      continue;
    }
    if (m[2] === "tr") {
      const table = stack.findLast((e) => e.tag === "tbl");
      if (table) table.rows++;
    }
    stack.push({ tag: m[2], rows: 0, exact: false });
  }
  return stack.some(
    (e, i) => e.tag === "tbl" && e.rows > 1 && stack.slice(0, i).some((o) => o.tag === "tr" && o.exact),
  );
}

describe.skipIf(!haveTools)("LibreOffice opens every annotate output", () => {
  it("filled templates, a round trip and a SuperDoc e-sign flow render with their values in place", async () => {
    const { template, fields, png } = T.sampleContract();
    const contract = fill(template(), fields);
    const again = fill(contract, [
      { id: "client_name", type: "text", value: "Grace Hopper" },
      { group: "party", type: "text", value: "Navy Yard" },
      { id: "items", type: "table", value: [["Compiler", "1", "0.00"]] },
      {
        id: "sig",
        type: "signature",
        value: dataUri(makePng(300, 100, [0, 0, 0])),
        options: { bottomLabel: { text: "Drawn signature" } },
      },
    ]);
    const plain = fill(template(), [
      { id: "client_name", type: "text", value: "Unstyled", options: { keepTextNodeStyles: false } },
    ]);
    // A SuperDoc e-sign flow: template-builder fields (numeric ids, a group) and typed + drawn signatures.
    const esign = fill(
      T.templateDocx({
        body: [
          T.para(T.text("Buyer: "), T.superdocStructured({ id: 1324567890, alias: "Buyer", group: "buyer" })),
          T.para(T.text("Buyer again: "), T.superdocStructured({ id: 1324567891, alias: "Buyer", group: "buyer" })),
          T.para(T.text("Typed: "), T.superdocAnnotation({ fieldId: "sig-typed", type: "signature" })),
          T.para(T.text("Drawn: "), T.superdocAnnotation({ fieldId: "sig-drawn", type: "signature" })),
          T.superdocStructured({ id: 77, alias: "Terms", block: true }),
        ].join(""),
        header: T.para(T.superdocLegacyAnnotation({ fieldId: "hdr-field", type: "text" })),
      }),
      [
        { group: "buyer", type: "text", value: "Jane Buyer" },
        {
          id: "sig-typed",
          type: "signature",
          value: "Jane Buyer",
          options: { bottomLabel: { text: "Signed by Jane" } },
        },
        {
          id: "sig-drawn",
          type: "signature",
          value: dataUri(makePng(400, 120, [10, 10, 10])),
          options: { dimensions: { width: 200 } },
        },
        { id: "77", type: "text", value: "Terms accepted" },
        { id: "hdr-field", type: "text", value: "Header value" },
      ],
    );
    const texts = await renderAll({ contract, again, plain, esign });
    for (const [name, text] of Object.entries(texts))
      expect(text, `${name}: LibreOffice could not open it`).not.toBeNull();

    const c = squash(texts.contract!);
    for (const v of [
      "Ada & <Lovelace>",
      "Analytical Engines",
      "☒",
      "05/05/2025",
      "1234.50",
      "May 5, 2025 14:30",
      "☐",
      "Acme Corp",
      "Widget",
      "Gadget",
      "10.00",
      "Ada Lovelace",
      "Signed electronically",
      "Acme by id",
      "AL",
      "Ref 42",
      "Contract for Acme Corp",
    ]) {
      expect(c, v).toContain(v);
    }
    expect(c).not.toContain("Click or tap");
    expect(c).not.toContain("row value");
    // Header row, then the value rows in order.
    expect(c).toMatch(/Item\s+Qty\s+Price\s+Widget\s+2\s+10\.00\s+Gadget\s+1\s+true/);

    const a = squash(texts.again!);
    for (const v of ["Grace Hopper", "Navy Yard", "Compiler", "Drawn signature", "Widget"]) expect(a, v).toContain(v);
    expect(a).not.toContain("Ada & <Lovelace>");
    expect(a).not.toContain("Gadget");

    expect(squash(texts.plain!)).toContain("Unstyled");
    const e = squash(texts.esign!);
    for (const v of [
      "Buyer: Jane Buyer",
      "Buyer again: Jane Buyer",
      "Typed: Jane Buyer",
      "Signed by Jane",
      "Terms accepted",
      "Header value",
    ])
      expect(e, v).toContain(v);
    expect(e).not.toContain("{{");

    // Pictures really are in the PDFs: the logo (contract); logo and drawn signature (again); the drawn one (esign).
    const dir = join(
      work,
      readdirSync(work).find((d) => existsSync(join(work, d, "contract.pdf")))!,
    );
    expect(await imageCount(dir, "contract")).toBeGreaterThanOrEqual(1);
    expect(await imageCount(dir, "again")).toBeGreaterThanOrEqual(2);
    expect(await imageCount(dir, "esign")).toBe(1);
    expect(png.length).toBeGreaterThan(0);
  });

  it("the corpus DOCX files with content controls open with every filled value where LibreOffice draws it", async () => {
    const manifest = readFileSync(join(CORPUS, "MANIFEST.tsv"), "utf8");
    const names = manifest
      .split("\n")
      .filter((l) => l.startsWith("docx/") && /\[sdt=\d+/.test(l))
      .map((l) => l.split("\t")[0]!.slice("docx/".length));
    expect(names.length).toBeGreaterThan(20);
    // Controls LibreOffice 7.4 does not draw in the original either: text boxes of a VML cover-page
    // group, text boxes of Strict OOXML (wne:txbxContent), rows clipped by a row of exact height.
    const notDrawn: Record<string, (c: { part: string; xmlBefore: string }) => boolean> = {
      "openxmlsdk__cover_page__covwepage4.docx": (c) =>
        c.xmlBefore.lastIndexOf("<v:textbox") > c.xmlBefore.lastIndexOf("</v:textbox>"),
      "openxmlsdk__Strict01.docx": (c) =>
        c.xmlBefore.lastIndexOf("<wne:txbxContent") > c.xmlBefore.lastIndexOf("</wne:txbxContent>"),
      // A four-row table nested in a header row of exact height (20 pt): only its first row fits.
      "fedramp__SSP-A04-FedRAMP-PIA-Template.docx": (c) => inClippedNestedRow(c.xmlBefore),
    };
    const outputs: Record<string, Uint8Array> = {};
    const expected: Record<string, { marker: string; part: string }[]> = {};
    for (const name of names) {
      const bytes = new Uint8Array(readFileSync(join(CORPUS, "docx", name)));
      const t = DocxTemplate.open(bytes);
      const fields: Record<string, unknown>[] = [];
      const byId = new Map<string, string>();
      t.controls.forEach((c, k) => {
        if (!c.id || c.kind === "docPart" || byId.has(c.id)) return;
        const marker = `SGN${k}Q`;
        byId.set(c.id, marker);
        fields.push(
          c.kind === "checkbox"
            ? { id: c.id, type: "checkbox", value: true }
            : { id: c.id, type: "text", value: marker },
        );
      });
      outputs[name] = fill(bytes, fields);
      // Values of controls not inside another filled control (those go with their parent).
      const filled = new Set(t.controls.filter((c) => c.id && byId.has(c.id) && c.kind !== "docPart"));
      expected[name] = [];
      for (const part of t.parts) {
        for (const c of part.controls) {
          if (!filled.has(c) || c.kind === "checkbox") continue;
          let covered = false;
          for (let p = c.parent; p >= 0; p = part.controls[p]!.parent)
            if (filled.has(part.controls[p]!)) covered = true;
          if (covered || notDrawn[name]?.({ part: part.name, xmlBefore: part.xml.slice(0, c.start) })) continue;
          expected[name]!.push({ marker: byId.get(c.id!)!, part: part.name });
        }
      }
    }
    const texts = await renderAll(
      Object.fromEntries(Object.entries(outputs).map(([n, b]) => [n.replace(/\.docx$/, ""), b])),
      "-raw",
    );
    // A template LibreOffice cannot load itself (officeimo's generated file) tells nothing of our output.
    const unopened = names.filter((n) => texts[n.replace(/\.docx$/, "")] === null);
    const originals = await renderAll(
      Object.fromEntries(
        unopened.map((n) => [n.replace(/\.docx$/, ""), new Uint8Array(readFileSync(join(CORPUS, "docx", n)))]),
      ),
      "-raw",
    );
    let checked = 0;
    for (const name of names) {
      if (unopened.includes(name) && originals[name.replace(/\.docx$/, "")] === null) continue;
      const raw = texts[name.replace(/\.docx$/, "")];
      expect(raw, `${name}: LibreOffice could not open the output`).toEqual(expect.any(String));
      // Without white space: a marker in a narrow column wraps inside itself ("SGN2" / "1Q").
      const text = raw!.replace(/\s+/g, "");
      // Headers and footers only count on the pages that show them.
      const pages = raw!.split("\f").filter((p) => p.trim()).length;
      const shown = headerFooterShown(outputs[name]!, pages);
      for (const marker of new Set(expected[name]!.filter((e) => shown(e.part)).map((e) => e.marker))) {
        expect(text, `${name}: ${marker}`).toContain(marker);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("corpus templates whose external relationships annotate strips (attached templates, mail-merge sources, linked pictures) open with the same text", async () => {
    const names = [
      "aspose__Invoice_1",
      "mailmerge__test_winword2010",
      "openxmlsdk__mailmerge",
      "tika__017097",
      "poi__60316",
    ];
    const originals: Record<string, Uint8Array> = {};
    const outputs: Record<string, Uint8Array> = {};
    for (const name of names) {
      originals[name] = new Uint8Array(readFileSync(join(CORPUS, "docx", `${name}.docx`)));
      outputs[`${name}-out`] = fill(originals[name]!, []);
      const external = Object.entries(unzipSync(outputs[`${name}-out`]!))
        .filter(([part]) => part.endsWith(".rels"))
        .flatMap(([, xml]) => strFromU8(xml).match(/<Relationship [^>]*TargetMode="External"[^>]*>/g) ?? []);
      expect(
        external.filter((r) => !r.includes("/hyperlink")),
        name,
      ).toEqual([]);
      expect(outputs[`${name}-out`]).not.toEqual(originals[name]);
    }
    const texts = await renderAll({ ...originals, ...outputs });
    for (const name of names) {
      expect(texts[`${name}-out`], name).toEqual(expect.any(String));
      expect(texts[`${name}-out`]!.replace(/\s+/g, " "), name).toBe(texts[name]!.replace(/\s+/g, " "));
    }
  });
});
