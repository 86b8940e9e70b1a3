/**
 * The DOCX template engine: open a package, find its content controls (body, headers, footers,
 * footnotes, endnotes), match request fields to them, fill, and write the package back with only
 * the touched parts changed.
 *
 *   const template = DocxTemplate.open(bytes);
 *   const { matched, unmatched } = template.match(fields);
 *   // resolve the images of matched image/signature fields, then:
 *   const { segments, length } = template.fill(fields, images);
 */
import { InvalidRequest } from "../errors";
import { groupKey, idKeys, scanControls, type Control } from "./controls";
import { imageSource, numericOption, valueProblem, type TemplateField } from "./fields";
import { fillControl, type FillContext, type FillValue, type PreparedImage } from "./fill";
import { IMAGE_CONTENT_TYPES, IMAGE_EXTENSIONS, STRICT_DRAWING, TRANSITIONAL_DRAWING } from "./images";
import { stripExternalRelationships } from "./external-links";
import { DocxPackage, relTypeName, STRICT_W } from "./package";
import { formatNumber, parseCheckbox, parseIsoDate, textOfValue } from "./values";
import { applySplices, assertNoDtd, type Splice } from "./xml";

const TRANSITIONAL_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const SCANNED_PART_TYPES = new Set(["header", "footer", "footnotes", "endnotes"]);
/** Letter with 1" margins, when the document says nothing: 6.5 in. */
const DEFAULT_TEXT_WIDTH_TWIPS = 9360;
const EMU_PER_TWIP = 635;

interface ScannedPart {
  name: string;
  xml: string;
  controls: Control[];
}

export interface MatchResult {
  /** For each field (by index), the controls it fills. */
  matched: Control[][];
  /** Indexes of the fields that match nothing. */
  unmatched: number[];
}

export class DocxTemplate {
  readonly pkg: DocxPackage;
  readonly parts: ScannedPart[] = [];
  private maxDocPrId = 0;
  private readonly textWidthEmu: number;
  private index: { byId: Map<string, Control[]>; byGroup: Map<string, Control[]> } | null = null;

  private constructor(bytes: Uint8Array) {
    this.pkg = DocxPackage.open(bytes);
    // Reading them checks the DTD rule on the package's index parts too.
    assertNoDtd(this.pkg.readXml("[Content_Types].xml"), "[Content_Types].xml");
    // What we return must not make its reader fetch or run anything on opening it (before the
    // parts are scanned: the main document may lose a linked picture's reference).
    stripExternalRelationships(this.pkg);
    const names = [this.pkg.mainPart];
    for (const rel of this.pkg.relationships(this.pkg.mainPart)) {
      const type = relTypeName(rel.type);
      if (rel.external || !type || !SCANNED_PART_TYPES.has(type)) continue;
      const entry = this.pkg.entry(rel.target);
      if (entry && !names.includes(entry.name)) names.push(entry.name);
    }
    for (const name of names) {
      const xml = this.pkg.readXml(name);
      const controls = xml.includes("sdt") ? scanControls(xml, name) : [];
      this.parts.push({ name, xml, controls });
      for (const m of xml.matchAll(/docPr\b[^>]*?\sid\s*=\s*["'](\d{1,9})["']/g))
        this.maxDocPrId = Math.max(this.maxDocPrId, Number(m[1]));
    }
    this.textWidthEmu = textWidthTwips(this.parts[0]!.xml) * EMU_PER_TWIP;
    // The parts we only copy are returned too: none may carry a DTD either.
    this.pkg.assertNoDtdInAnyPart();
  }

  static open(bytes: Uint8Array): DocxTemplate {
    return new DocxTemplate(bytes);
  }

  /**
   * Controls by the ids and groups that select them, in document order: matching is one lookup
   * per field (1,000 fields against 49,000 controls took 1.2 s compared one by one).
   */
  private controlIndex(): { byId: Map<string, Control[]>; byGroup: Map<string, Control[]> } {
    if (this.index) return this.index;
    const byId = new Map<string, Control[]>();
    const byGroup = new Map<string, Control[]>();
    const add = (map: Map<string, Control[]>, key: string, c: Control) => {
      const list = map.get(key);
      if (list) list.push(c);
      else map.set(key, [c]);
    };
    for (const c of this.controls) {
      for (const key of idKeys(c)) add(byId, key, c);
      const group = groupKey(c);
      if (group !== undefined) add(byGroup, group, c);
    }
    this.index = { byId, byGroup };
    return this.index;
  }

  get controls(): Control[] {
    return this.parts.flatMap((p) => p.controls);
  }

  match(fields: readonly TemplateField[]): MatchResult {
    const { byId, byGroup } = this.controlIndex();
    const matched = fields.map((f) => [
      ...((f.id !== undefined ? byId.get(f.id) : f.group !== undefined ? byGroup.get(f.group) : undefined) ?? []),
    ]);
    const unmatched = matched.flatMap((m, i) => (m.length ? [] : [i]));
    return { matched, unmatched };
  }

  /**
   * Fills the matched controls. `images` holds the prepared picture of each image or signature
   * field (by field index) whose value is not typed text. The last field that targets a control
   * wins; a control inside another filled control goes with its parent's content.
   */
  fill(
    fields: readonly TemplateField[],
    images: ReadonlyMap<number, PreparedImage>,
  ): { segments: Uint8Array[]; length: number } {
    const { matched } = this.match(fields);
    const values = fields.map((f, i) => (matched[i]!.length ? fillValue(f, i, images) : null));
    const byControl = new Map<Control, number>();
    matched.forEach((controls, i) => {
      for (const c of controls) byControl.set(c, i);
    });
    if (!byControl.size) return this.pkg.write();

    const mediaByKey = new Map<string, string>();
    const wNamespace = this.pkg.strict ? STRICT_W : TRANSITIONAL_W;
    const drawing = this.pkg.strict ? STRICT_DRAWING : TRANSITIONAL_DRAWING;
    for (const part of this.parts) {
      const chosen = part.controls.filter((c) => byControl.has(c));
      if (!chosen.length) continue;
      const filled = new Set(chosen.map((c) => c.index));
      const relByKey = new Map<string, string>();
      const ctx: FillContext = {
        xml: part.xml,
        part: part.name,
        wNamespace,
        drawing,
        maxWidthEmu: this.textWidthEmu,
        embedImage: (image) => {
          let media = mediaByKey.get(image.key);
          if (!media) {
            media = this.addMedia(image);
            mediaByKey.set(image.key, media);
          }
          let rel = relByKey.get(image.key);
          if (!rel) {
            const imageType = `${this.pkg.strict ? "http://purl.oclc.org/ooxml/officeDocument/relationships" : "http://schemas.openxmlformats.org/officeDocument/2006/relationships"}/image`;
            rel = this.pkg.addRelationship(part.name, imageType, media);
            relByKey.set(image.key, rel);
          }
          return rel;
        },
        nextDocPrId: () => ++this.maxDocPrId,
      };
      const splices: Splice[] = [];
      for (const c of chosen) {
        if (hasFilledAncestor(part.controls, c, filled)) continue;
        const i = byControl.get(c)!;
        const f = fields[i]!;
        const bottom = f.options?.bottomLabel?.text;
        splices.push(
          ...fillControl(ctx, c, values[i]!, {
            keepStyles: f.options?.keepTextNodeStyles !== false,
            bottomLabel: typeof bottom === "string" && bottom !== "" ? bottom : undefined,
          }),
        );
      }
      const next = applySplices(part.xml, splices);
      this.pkg.setXml(part.name, next);
    }
    return this.pkg.write();
  }

  private addMedia(image: PreparedImage): string {
    const dir = this.pkg.mainPart.includes("/")
      ? this.pkg.mainPart.slice(0, this.pkg.mainPart.lastIndexOf("/") + 1)
      : "";
    const ext = IMAGE_EXTENSIONS[image.info.type];
    let n = 1;
    while (this.pkg.has(`${dir}media/signet-image${n}.${ext}`)) n++;
    const name = `${dir}media/signet-image${n}.${ext}`;
    this.pkg.addBinaryPart(name, image.bytes);
    this.pkg.ensureDefaultContentType(ext, IMAGE_CONTENT_TYPES[image.info.type]);
    return name;
  }
}

function hasFilledAncestor(controls: Control[], c: Control, filled: Set<number>): boolean {
  for (let p = c.parent; p >= 0; p = controls[p]!.parent) if (filled.has(p)) return true;
  return false;
}

/** The text width of the document's last section, in twips. */
function textWidthTwips(documentXml: string): number {
  const at = documentXml.lastIndexOf("sectPr");
  if (at < 0) return DEFAULT_TEXT_WIDTH_TWIPS;
  const tail = documentXml.slice(documentXml.lastIndexOf("<", at), Math.min(documentXml.length, at + 4000));
  const pgSz = /<(?:\w+:)?pgSz\b([^>]*)>/.exec(tail)?.[1] ?? "";
  const pgMar = /<(?:\w+:)?pgMar\b([^>]*)>/.exec(tail)?.[1] ?? "";
  const num = (attrs: string, name: string) => {
    const m = new RegExp(`(?:\\w+:)?${name}\\s*=\\s*["'](-?\\d+(?:\\.\\d+)?)["']`).exec(attrs);
    return m ? Number(m[1]) : undefined;
  };
  const width = num(pgSz, "w");
  if (!width) return DEFAULT_TEXT_WIDTH_TWIPS;
  const left = num(pgMar, "left") ?? num(pgMar, "start") ?? 1440;
  const right = num(pgMar, "right") ?? num(pgMar, "end") ?? 1440;
  const text = width - Math.max(0, left) - Math.max(0, right);
  return text > 720 ? text : DEFAULT_TEXT_WIDTH_TWIPS;
}

function invalidValue(i: number, problem: { path: string; message: string }): InvalidRequest {
  const path = `fields.${i}.${problem.path}`;
  return new InvalidRequest("invalid_request", `${path}: ${problem.message}`, {
    errors: [{ path, message: problem.message }],
  });
}

function fillValue(f: TemplateField, i: number, images: ReadonlyMap<number, PreparedImage>): FillValue {
  const problem = valueProblem(f.type, f.value, f.options);
  if (problem) throw invalidValue(i, problem);
  switch (f.type) {
    case "text":
      return { kind: "text", text: textOfValue(f.value) };
    case "number": {
      const d = numericOption(f.options?.decimals);
      return { kind: "text", text: formatNumber(f.value as number | string, d) };
    }
    case "date":
      return {
        kind: "date",
        date: parseIsoDate(f.value as string)!,
        format: typeof f.options?.format === "string" ? f.options.format : undefined,
      };
    case "checkbox":
      return { kind: "checkbox", checked: parseCheckbox(f.value)! };
    case "image":
    case "signature": {
      const image = images.get(i);
      if (image) {
        return {
          kind: "image",
          image,
          width: numericOption(f.options?.dimensions?.width),
          height: numericOption(f.options?.dimensions?.height),
        };
      }
      if (f.type === "signature" && imageSource(f.type, f.value).kind === "typed") {
        return { kind: "text", text: textOfValue(f.value), signature: true };
      }
      throw new Error(`field ${i}: image not prepared`);
    }
    case "table":
      return { kind: "table", rows: (f.value as unknown[][]).map((r) => r.map((cell) => textOfValue(cell))) };
  }
}
