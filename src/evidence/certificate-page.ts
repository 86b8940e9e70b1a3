/**
 * The audit-trail certificate page(s): A4 pages made with @pdfme/generator (the
 * template engine: pages, schema positions, plugins), which the signer appends to
 * the document before signing.
 *
 * Pure: no Hono, no env; fonts come in as bytes. Everything is laid out here
 * (fonts measured with font-metrics.ts, text pre-wrapped or truncated to fit),
 * so pdfme only draws: nothing is clipped, nothing overlaps, and long trails
 * flow over as many pages as needed. Text is drawn by our plugin (text-layer.ts)
 * with fonts parsed and subset once per isolate (page-fonts.ts); the pages come
 * out as objects the signer writes into its update as they are (no second load).
 * Everything a page draws lives in its own content streams and resources (no
 * outlines, no annotations, no forms). The same input gives the same bytes.
 */
import { generate } from "@pdfme/generator";
import type { Font, Plugin, Schema, Template } from "@pdfme/common";
import { line, rectangle } from "@pdfme/schemas";
import { writeStandalonePdf, type AppendablePages } from "../pdf/writer/appendable-pages";
import { collapseAuditTrail, type AuditEntry, type AuditLine } from "./collapse";
import type { FontMetrics } from "./font-metrics";
import { PageFont } from "./page-fonts";
import { encodeQr } from "./qr";
import { PageLayers, QR_SCHEMA_TYPE, TEXT_SCHEMA_TYPE } from "./page-layers";
import { printable, truncate, truncateMiddle, wrap } from "./text-fit";
import type { CertificateFonts, CertificatePageInput } from "./types";

export type { CertificateFonts, CertificatePageInput } from "./types";

// ---- page geometry (millimetres, origin top-left, as pdfme) ----
/** What the certificate page says about the signature's level (the level asked for: it is drawn before signing). */
const LEVEL_TEXT: Record<CertificatePageInput["level"], string> = {
  "B-B": "PAdES baseline B-B",
  "B-T": "PAdES baseline B-T (with an RFC 3161 time-stamp)",
  "B-LT": "PAdES baseline B-LT (time-stamped, validation data embedded)",
  "B-LTA": "PAdES baseline B-LTA (validation data and document time-stamp)",
};

const PAGE_W = 210;
const PAGE_H = 297;
const MARGIN_X = 15;
const CONTENT_W = PAGE_W - 2 * MARGIN_X;
const BAND_H_FIRST = 30;
const BAND_H_NEXT = 22;
const FOOTER_RULE_Y = 283;
const FOOTER_TEXT_Y = 285.2;
const BODY_BOTTOM = 280;
const KEY_W = 34;
const VALUE_X = MARGIN_X + KEY_W + 2;
const QR_BOX = 34;
const QR_X = PAGE_W - MARGIN_X - QR_BOX + 4 * (QR_BOX / 45); // quiet zone may reach into the margin
const ROW_H = 4.8;
const CELL_PAD = 1.4;

// Table columns: #, date, time, event, field, details (mm, sum = CONTENT_W).
const COLUMNS = [
  { key: "index", title: "#", width: 10, align: "right" as const },
  { key: "date", title: "Date", width: 17, align: "left" as const },
  { key: "time", title: "Time (UTC)", width: 32, align: "left" as const },
  { key: "event", title: "Event", width: 33, align: "left" as const },
  { key: "field", title: "Field", width: 29, align: "left" as const },
  { key: "details", title: "Details", width: 59, align: "left" as const },
];

// ---- style ----
const COLOR = {
  band: "#23405f",
  bandText: "#ffffff",
  bandMuted: "#c5d2e2",
  text: "#1f2933",
  muted: "#5b6775",
  heading: "#23405f",
  rule: "#cfd8e3",
  headerBg: "#e4eaf2",
  stripe: "#f3f6f9",
  submit: "#23405f",
};
const SIZE = {
  title: 18,
  bandSub: 9,
  heading: 10,
  key: 8,
  value: 9,
  name: 10.5,
  mono: 7.6,
  intro: 8.4,
  table: 7.4,
  footer: 7.2,
};
const LINE = 1.42; // line pitch, as a multiple of the font size, for wrapped text

const PT = 72 / 25.4;
const mm = (pt: number) => pt / PT;

type FontKey = "regular" | "bold" | "mono";
const FONT_NAME: Record<FontKey, string> = { regular: "NotoSans", bold: "NotoSansBold", mono: "NotoSansMono" };

interface Metrics {
  regular: FontMetrics;
  bold: FontMetrics;
  mono: FontMetrics;
}

/** pdfme wants a Uint8Array that owns a plain ArrayBuffer. */
function ownBytes(bytes: Uint8Array | ArrayBuffer): Uint8Array<ArrayBuffer> {
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  const buffer = bytes.buffer;
  if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength) {
    return new Uint8Array(buffer);
  }
  return new Uint8Array(bytes); // a copy that owns its buffer
}

// ---- formatting ----

const pad2 = (n: number) => String(n).padStart(2, "0");
function utcDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}
function utcTime(ms: number): string {
  const d = new Date(ms);
  return `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
}
/** "2026-11-21 10:00:00 UTC" */
export function formatUtc(date: Date): string {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw new RangeError("signedAt is not a valid date");
  return `${utcDate(ms)} ${utcTime(ms)} UTC`;
}
function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A short, readable rendering of a value: strings quoted, others as compact JSON. */
function showValue(value: unknown): string {
  if (typeof value === "string") return `"${value}"`;
  if (value === undefined) return "";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

const FIELD_KEYS = new Set(["fieldId", "field", "id"]);

/** The "Details" cell of a line: final value, scroll position, or the event's other data. */
export function describeLine(lineInfo: AuditLine): string {
  const data = lineInfo.last.data;
  const many = lineInfo.count > 1;
  if (isRecord(data)) {
    if ("value" in data) return `${many ? "final: " : ""}${showValue(data.value)}`;
    if ("percent" in data) {
      const p = data.percent;
      const shown =
        typeof p === "number" && Number.isFinite(p)
          ? `${Math.round(p * 10) / 10}%`
          : p === null || p === undefined
            ? "none"
            : showValue(p);
      return `${many ? "final position" : "position"}: ${shown}`;
    }
    const rest = Object.entries(data).filter(([k]) => !FIELD_KEYS.has(k));
    if (rest.length === 0) return "";
    return `${many ? "last: " : ""}${rest.map(([k, v]) => `${k}: ${showValue(v)}`).join(", ")}`;
  }
  if (data === undefined || data === null) return "";
  return `${many ? "last: " : ""}${showValue(data)}`;
}

function timeCells(lineInfo: AuditLine): { date: string; time: string } {
  const { firstTime, lastTime } = lineInfo;
  if (firstTime === null) {
    return { date: "?", time: String(lineInfo.first.timestamp ?? "") };
  }
  const date = utcDate(firstTime);
  const t1 = utcTime(firstTime);
  if (lineInfo.count === 1 || lastTime === null) return { date, time: t1 };
  const t2 = utcTime(lastTime);
  if (utcDate(lastTime) !== date) {
    const days = Math.round((Date.UTC(...ymd(lastTime)) - Date.UTC(...ymd(firstTime))) / 86_400_000);
    return { date, time: `${t1}\u2013${t2} +${days}d` };
  }
  return { date, time: t1 === t2 ? t1 : `${t1}\u2013${t2}` };
}
function ymd(ms: number): [number, number, number] {
  const d = new Date(ms);
  return [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
}

// ---- template building ----

interface TextOptions {
  x: number;
  y: number;
  width: number;
  lines: string[];
  font: FontKey;
  size: number;
  color: string;
  /** Line pitch as a multiple of the size. */
  lineHeight?: number;
  align?: "left" | "right" | "center";
}

class PageSchemas {
  readonly schemas: Schema[] = [];
  constructor(
    private readonly out: Record<string, string>,
    private readonly ids: { next: number },
    private readonly metrics: Metrics,
  ) {}

  private name(): string {
    return `s${this.ids.next++}`;
  }

  /** Adds pre-fitted text; returns the height (mm) it takes, line pitch included. */
  text(o: TextOptions): number {
    const m = this.metrics[o.font];
    const lh = o.lineHeight ?? LINE;
    const ascent = (m.ascender / m.unitsPerEm) * o.size;
    const descent = (-m.descender / m.unitsPerEm) * o.size;
    const boxH = mm((o.lines.length - 1) * lh * o.size + ((lh - 1) * o.size) / 2 + ascent + descent);
    const name = this.name();
    this.out[name] = o.lines.join("\n");
    this.schemas.push({
      name,
      type: TEXT_SCHEMA_TYPE,
      position: { x: o.x, y: o.y },
      width: o.width,
      height: boxH,
      fontName: FONT_NAME[o.font],
      fontSize: o.size,
      fontColor: o.color,
      lineHeight: lh,
      characterSpacing: 0,
      alignment: o.align ?? "left",
      verticalAlignment: "top",
      backgroundColor: "",
    } as Schema);
    return mm(o.lines.length * lh * o.size);
  }

  rect(x: number, y: number, width: number, height: number, color: string): void {
    this.schemas.push({
      name: this.name(),
      type: "rectangle",
      position: { x, y },
      width,
      height,
      color,
      borderWidth: 0,
      borderColor: "",
      radius: 0,
    } as Schema);
  }

  rule(x: number, y: number, width: number, thickness: number, color: string): void {
    this.schemas.push({
      name: this.name(),
      type: "line",
      position: { x, y },
      width,
      height: thickness,
      color,
    } as Schema);
  }

  qr(x: number, y: number, size: number, payload: string): void {
    const name = this.name();
    this.out[name] = payload;
    this.schemas.push({
      name,
      type: QR_SCHEMA_TYPE,
      position: { x, y },
      width: size,
      height: size,
      color: COLOR.text,
    } as Schema);
  }
}

interface Row {
  cells: Record<string, string>;
  bold: boolean;
  /** A full-width note row (the end-of-trail line). */
  note?: string;
}

function buildRows(lines: AuditLine[], m: Metrics, totalEvents: number): Row[] {
  const rows: Row[] = [];
  const cellWidth = (key: string) => mm2ptInner(COLUMNS.find((c) => c.key === key)!.width);
  lines.forEach((l, i) => {
    const bold = l.type === "submit";
    const font = bold ? m.bold : m.regular;
    const { date, time } = timeCells(l);
    const count = l.count > 1 ? ` \u00d7${thousands(l.count)}` : "";
    const countW = font.widthOf(count, SIZE.table);
    const type = printable(l.type ?? "(no type)", font);
    const event = truncate(type, font, SIZE.table, cellWidth("event") - countW) + count;
    rows.push({
      bold,
      cells: {
        index: String(i + 1),
        date,
        time: truncate(printable(time, m.regular), m.regular, SIZE.table, cellWidth("time")),
        event,
        field: l.field === null ? "" : truncate(printable(l.field, font), font, SIZE.table, cellWidth("field")),
        details: truncate(printable(describeLine(l), font), font, SIZE.table, cellWidth("details")),
      },
    });
  });
  rows.push({
    bold: false,
    cells: {},
    note: `End of the audit trail: ${thousands(totalEvents)} event${totalEvents === 1 ? "" : "s"} in ${thousands(lines.length)} line${lines.length === 1 ? "" : "s"}.`,
  });
  return rows;
}

function mm2ptInner(widthMm: number): number {
  return (widthMm - 2 * CELL_PAD) * PT;
}

/** The certificate page(s) as a standalone A4 PDF (what the signer appends, as a file of its own). */
export async function renderCertificatePages(
  input: CertificatePageInput,
  fonts: CertificateFonts,
): Promise<Uint8Array> {
  return writeStandalonePdf(await buildCertificatePages(input, fonts), {
    Title: "Signature certificate",
    Author: "Signet",
    Creator: "Signet",
    Producer: "Signet",
    Subject: `Audit trail for event ${input.eventId}`,
  });
}

/**
 * Lays out and draws the certificate page(s), as objects ready to be written into a PDF.
 * Throws RangeError when `signedAt` is invalid or `qrPayload` is over 213 bytes.
 */
export async function buildCertificatePages(
  input: CertificatePageInput,
  fonts: CertificateFonts,
): Promise<AppendablePages> {
  encodeQr(input.qrPayload); // fail fast (RangeError) on a payload too long for the QR code
  const pageFonts = certificatePageFonts(fonts);
  const layout = new CertificateLayout(input, {
    regular: pageFonts[FONT_NAME.regular]!.metrics,
    bold: pageFonts[FONT_NAME.bold]!.metrics,
    mono: pageFonts[FONT_NAME.mono]!.metrics,
  });
  layout.drawFirstPage();
  layout.drawAuditTrail();
  layout.drawFooters();
  return generatePages(layout, input, fonts, pageFonts);
}

/** The fonts our plugins draw with, by the names the template gives them (parsed and subset once per isolate). */
function certificatePageFonts(fonts: CertificateFonts): Record<string, PageFont> {
  return {
    [FONT_NAME.regular]: PageFont.of(fonts.regular, "NotoSans-Regular"),
    [FONT_NAME.bold]: PageFont.of(fonts.bold, "NotoSans-Bold"),
    [FONT_NAME.mono]: fonts.mono
      ? PageFont.of(fonts.mono, "NotoSansMono-Regular")
      : PageFont.of(fonts.regular, "NotoSans-Regular"),
  };
}

/**
 * pdfme runs the template and draws the shapes; our plugins draw the fitted text and the QR code
 * into a layer per page (page-layers.ts), which become the pages as they are.
 */
async function generatePages(
  layout: CertificateLayout,
  input: CertificatePageInput,
  fonts: CertificateFonts,
  pageFonts: Record<string, PageFont>,
): Promise<AppendablePages> {
  const template: Template = {
    basePdf: { width: PAGE_W, height: PAGE_H, padding: [0, 0, 0, 0] },
    schemas: layout.pages.map((p) => p.schemas),
  };
  // pdfme checks that every font a schema names is given; our text plugin draws with page-fonts.ts.
  const regularBytes = ownBytes(fonts.regular);
  const font: Font = {
    [FONT_NAME.regular]: { data: regularBytes, fallback: true },
    [FONT_NAME.bold]: { data: regularBytes },
    [FONT_NAME.mono]: { data: regularBytes },
  };
  const layers = new PageLayers(pageFonts);
  const plugins: Record<string, Plugin> = {
    [TEXT_SCHEMA_TYPE]: layers.textPlugin,
    rectangle,
    line,
    [QR_SCHEMA_TYPE]: layers.qrPlugin,
  };
  // pdfme saves its document (bytes we do not need); its pages, drawn, are taken as they are.
  await generate({
    template,
    inputs: [layout.values],
    plugins,
    options: { font, creationDate: input.signedAt, modificationDate: input.signedAt },
  });
  return layers.pagesOf();
}

interface KeyValue {
  key: string;
  value: string;
  font?: FontKey;
  size?: number;
  maxLines?: number;
  muted?: boolean;
  /** Break anywhere (ids, hashes) rather than at words, keep the ends when shortening. */
  opaque?: boolean;
}

const FULL_VALUE_W = PAGE_W - MARGIN_X - VALUE_X;

/** The pages' template, laid out top to bottom: `y` is where the next block goes on the current page. */
class CertificateLayout {
  readonly values: Record<string, string> = {};
  readonly pages: PageSchemas[] = [];
  private readonly ids = { next: 0 };
  private y = 0;

  constructor(
    private readonly input: CertificatePageInput,
    private readonly m: Metrics,
  ) {}

  private newPage(): PageSchemas {
    const page = new PageSchemas(this.values, this.ids, this.m);
    this.pages.push(page);
    return page;
  }

  private get page(): PageSchemas {
    return this.pages[this.pages.length - 1]!;
  }

  /** Page 1: the header band, the statement, and the signer, signing, document and certificate sections. */
  drawFirstPage(): void {
    this.newPage();
    this.drawFirstBand();
    this.drawIntro();
    this.drawSigner();
    this.drawSigning();
    this.drawDocument();
    this.drawSigningCertificate();
  }

  private drawFirstBand(): void {
    const page = this.page;
    page.rect(0, 0, PAGE_W, BAND_H_FIRST, COLOR.band);
    page.text({
      x: MARGIN_X,
      y: 8.5,
      width: 130,
      lines: ["Signature certificate"],
      font: "bold",
      size: SIZE.title,
      color: COLOR.bandText,
      lineHeight: 1.2,
    });
    page.text({
      x: MARGIN_X,
      y: 19.2,
      width: 130,
      lines: ["Audit trail and signing evidence recorded by Signet"],
      font: "regular",
      size: SIZE.bandSub,
      color: COLOR.bandMuted,
      lineHeight: 1.2,
    });
    const levelText = this.input.level === "B-B" ? "PAdES B-B" : `PAdES ${this.input.level} \u00b7 time-stamped`;
    page.text({
      x: PAGE_W - MARGIN_X - 50,
      y: 19.2,
      width: 50,
      lines: [levelText],
      font: "regular",
      size: SIZE.bandSub,
      color: COLOR.bandMuted,
      lineHeight: 1.2,
      align: "right",
    });
    this.y = BAND_H_FIRST + 6;
  }

  private drawIntro(): void {
    const intro =
      "This page was added by Signet before signing; the digital signature covers it, so any change to it " +
      "invalidates the signature. It records who signed, when, the document that was signed and what happened " +
      "while it was open. The complete audit trail is in the JSON file attached to this PDF.";
    this.y += this.page.text({
      x: MARGIN_X,
      y: this.y,
      width: CONTENT_W,
      lines: wrap(intro, this.m.regular, SIZE.intro, CONTENT_W * PT, 4),
      font: "regular",
      size: SIZE.intro,
      color: COLOR.muted,
    });
    this.y += 3;
  }

  private drawSigner(): void {
    const { signer } = this.input;
    this.drawHeading("Signer");
    this.drawKeyValues(
      [
        { key: "Name", value: signer.name, font: "bold", size: SIZE.name, maxLines: 2 },
        { key: "Email", value: signer.email, maxLines: 2 },
        {
          key: "IP address",
          value: signer.ip ?? "not recorded",
          muted: !signer.ip,
          font: signer.ip ? "mono" : "regular",
          size: signer.ip ? SIZE.mono + 0.4 : SIZE.value,
        },
        {
          key: "User agent",
          value: signer.userAgent ?? "not recorded",
          muted: !signer.userAgent,
          size: 8,
          maxLines: 3,
        },
      ],
      FULL_VALUE_W,
    );
    this.y += 3;
  }

  private drawSigning(): void {
    this.drawHeading("Signing");
    this.drawKeyValues(
      [
        { key: "Event ID", value: this.input.eventId, font: "mono", size: SIZE.mono, maxLines: 2, opaque: true },
        { key: "Signed at", value: formatUtc(this.input.signedAt) },
        { key: "Signature", value: LEVEL_TEXT[this.input.level] },
      ],
      FULL_VALUE_W,
    );
    this.y += 3;
  }

  /** The document's facts beside the QR code, with a caption saying what the code carries. */
  private drawDocument(): void {
    const { input } = this;
    this.drawHeading("Document");
    const qrTop = this.y;
    const besideQr = QR_X - 3 - VALUE_X;
    const rows: KeyValue[] = [
      { key: "SHA-256 (as received)", value: input.documentSha256, font: "mono", size: SIZE.mono, opaque: true },
    ];
    if (input.documentPages !== undefined) rows.push({ key: "Pages", value: String(input.documentPages) });
    if (input.reference) rows.push({ key: "Reference", value: input.reference, maxLines: 2 });
    this.drawKeyValues(rows, besideQr);
    const caption =
      input.qrPayload === input.documentSha256
        ? "The QR code carries the document's SHA-256."
        : /^https?:\/\//i.test(input.qrPayload)
          ? "The QR code carries the verification address."
          : "The QR code carries the evidence reference.";
    this.y += 0.6;
    this.y += this.page.text({
      x: VALUE_X,
      y: this.y,
      width: besideQr,
      lines: wrap(caption, this.m.regular, SIZE.key, besideQr * PT, 2),
      font: "regular",
      size: SIZE.key,
      color: COLOR.muted,
    });
    this.page.qr(QR_X, qrTop - 2, QR_BOX, input.qrPayload);
    this.y = Math.max(this.y, qrTop - 2 + QR_BOX - 2) + 3;
  }

  private drawSigningCertificate(): void {
    const { certificate } = this.input;
    this.drawHeading("Signing certificate");
    this.drawKeyValues(
      [
        { key: "Subject", value: certificate.subject, maxLines: 2 },
        { key: "Issuer", value: certificate.issuer, maxLines: 2 },
        { key: "SHA-256 fingerprint", value: certificate.sha256, font: "mono", size: SIZE.mono, opaque: true },
      ],
      FULL_VALUE_W,
    );
    this.y += 3;
  }

  private drawHeading(title: string, right?: string): void {
    const page = this.page;
    page.text({
      x: MARGIN_X,
      y: this.y,
      width: 120,
      lines: [title],
      font: "bold",
      size: SIZE.heading,
      color: COLOR.heading,
      lineHeight: 1.2,
    });
    if (right) {
      const w = 80;
      page.text({
        x: PAGE_W - MARGIN_X - w,
        y: this.y + 0.9,
        width: w,
        lines: [truncate(right, this.m.regular, SIZE.key, w * PT)],
        font: "regular",
        size: SIZE.key,
        color: COLOR.muted,
        lineHeight: 1.2,
        align: "right",
      });
    }
    this.y += mm(SIZE.heading * 1.2) + 1.2;
    page.rule(MARGIN_X, this.y, CONTENT_W, 0.25, COLOR.rule);
    this.y += 1.8;
  }

  /** Keys in the left column, values fitted (truncated or wrapped) to `valueWidth` mm. */
  private drawKeyValues(rows: KeyValue[], valueWidth: number): void {
    const { m } = this;
    for (const r of rows) {
      const font = r.font ?? "regular";
      const size = r.size ?? SIZE.value;
      const metrics = m[font];
      const widthPt = valueWidth * PT;
      const clean = printable(r.value, metrics);
      const maxLines = r.maxLines ?? 1;
      const lines =
        maxLines === 1
          ? [r.opaque ? truncateMiddle(clean, metrics, size, widthPt) : truncate(clean, metrics, size, widthPt)]
          : wrap(clean, metrics, size, widthPt, maxLines);
      // Align the key's baseline with the value's first baseline.
      const keyShift = mm(
        ((LINE - 1) * size) / 2 +
          (metrics.ascender / metrics.unitsPerEm) * size -
          ((LINE - 1) * SIZE.key) / 2 -
          (m.regular.ascender / m.regular.unitsPerEm) * SIZE.key,
      );
      this.page.text({
        x: MARGIN_X,
        y: this.y + keyShift,
        width: KEY_W,
        lines: [truncate(r.key, m.regular, SIZE.key, KEY_W * PT)],
        font: "regular",
        size: SIZE.key,
        color: COLOR.muted,
      });
      const h = this.page.text({
        x: VALUE_X,
        y: this.y,
        width: valueWidth,
        lines,
        font,
        size,
        color: r.muted ? COLOR.muted : COLOR.text,
      });
      this.y += h + 0.6;
    }
  }

  /** The audit trail table, from where page 1 ends over as many continuation pages as its rows need. */
  drawAuditTrail(): void {
    const { input, m } = this;
    const lines = collapseAuditTrail(input.auditTrail as AuditEntry[]);
    const rows = buildRows(lines, m, input.auditTrail.length);
    this.drawHeading(
      "Audit trail",
      `${thousands(input.auditTrail.length)} events \u00b7 ${thousands(lines.length)} lines`,
    );
    const explain =
      "In time order (UTC). Consecutive events of the same type and field are collapsed into one line (\u00d7 count, first\u2013last time, final value).";
    this.y += this.page.text({
      x: MARGIN_X,
      y: this.y,
      width: CONTENT_W,
      lines: wrap(explain, m.regular, SIZE.key, CONTENT_W * PT, 2),
      font: "regular",
      size: SIZE.key,
      color: COLOR.muted,
    });
    this.y += 1.2;

    const slices: { page: PageSchemas; top: number; rows: Row[]; firstIndex: number }[] = [];
    let rowIndex = 0;
    for (;;) {
      const capacity = Math.floor((BODY_BOTTOM - (this.y + ROW_H)) / ROW_H);
      const take = rows.slice(rowIndex, rowIndex + Math.max(capacity, 0));
      if (take.length > 0) {
        slices.push({ page: this.page, top: this.y, rows: take, firstIndex: rowIndex });
        rowIndex += take.length;
      }
      if (rowIndex >= rows.length) break;
      this.newContinuationPage();
    }
    for (const slice of slices) drawTable(slice.page, slice.top, slice.rows, slice.firstIndex, m);
  }

  private newContinuationPage(): void {
    const page = this.newPage();
    page.rect(0, 0, PAGE_W, BAND_H_NEXT, COLOR.band);
    page.text({
      x: MARGIN_X,
      y: 7.8,
      width: 120,
      lines: ["Signature certificate"],
      font: "bold",
      size: 12,
      color: COLOR.bandText,
      lineHeight: 1.2,
    });
    page.text({
      x: PAGE_W - MARGIN_X - 70,
      y: 9.0,
      width: 70,
      lines: ["Audit trail (continued)"],
      font: "regular",
      size: SIZE.bandSub,
      color: COLOR.bandMuted,
      lineHeight: 1.2,
      align: "right",
    });
    this.y = BAND_H_NEXT + 6;
  }

  /** Every page: a rule, the event id on the left, "Page i of n" on the right. */
  drawFooters(): void {
    const { m } = this;
    const total = this.pages.length;
    this.pages.forEach((p, i) => {
      p.rule(MARGIN_X, FOOTER_RULE_Y, CONTENT_W, 0.25, COLOR.rule);
      const right = `Page ${i + 1} of ${total} of the certificate`;
      const rightW = 60;
      p.text({
        x: PAGE_W - MARGIN_X - rightW,
        y: FOOTER_TEXT_Y,
        width: rightW,
        lines: [right],
        font: "regular",
        size: SIZE.footer,
        color: COLOR.muted,
        lineHeight: 1.2,
        align: "right",
      });
      const leftW = CONTENT_W - rightW - 4;
      const prefix = "Signet \u00b7 event ";
      const prefixW = mm(m.regular.widthOf(prefix, SIZE.footer)) + 0.6;
      p.text({
        x: MARGIN_X,
        y: FOOTER_TEXT_Y,
        width: prefixW + 2,
        lines: [prefix.trimEnd()],
        font: "regular",
        size: SIZE.footer,
        color: COLOR.muted,
        lineHeight: 1.2,
      });
      const id = truncateMiddle(printable(this.input.eventId, m.mono), m.mono, SIZE.footer, (leftW - prefixW) * PT);
      p.text({
        x: MARGIN_X + prefixW,
        y: FOOTER_TEXT_Y,
        width: leftW - prefixW,
        lines: [id],
        font: "mono",
        size: SIZE.footer,
        color: COLOR.muted,
        lineHeight: 1.2,
      });
    });
  }
}

/** One slice of the audit trail table on a page: header row, stripes, one text box per column and weight, the end note. */
function drawTable(p: PageSchemas, top: number, slice: Row[], firstIndex: number, metrics: Metrics): void {
  // Header row.
  p.rect(MARGIN_X, top, CONTENT_W, ROW_H, COLOR.headerBg);
  let x = MARGIN_X;
  const baselineShift = rowTextShift(metrics.bold);
  for (const c of COLUMNS) {
    p.text({
      x: x + CELL_PAD,
      y: top - baselineShift,
      width: c.width - 2 * CELL_PAD,
      lines: [c.title],
      font: "bold",
      size: SIZE.table,
      color: COLOR.heading,
      lineHeight: mm2pt(ROW_H) / SIZE.table,
      align: c.align,
    });
    x += c.width;
  }
  const rowsTop = top + ROW_H;
  // Stripes and the end-of-trail note.
  slice.forEach((r, i) => {
    if ((firstIndex + i) % 2 === 1 && !r.note) p.rect(MARGIN_X, rowsTop + i * ROW_H, CONTENT_W, ROW_H, COLOR.stripe);
  });
  p.rule(MARGIN_X, rowsTop + slice.filter((r) => !r.note).length * ROW_H, CONTENT_W, 0.25, COLOR.rule);
  // One text schema per column (and per weight), one line per row.
  const lh = mm2pt(ROW_H) / SIZE.table;
  x = MARGIN_X;
  for (const c of COLUMNS) {
    for (const bold of [false, true]) {
      if (!slice.some((r) => !r.note && r.bold === bold)) continue;
      const lines = slice.map((r) => (!r.note && r.bold === bold ? (r.cells[c.key] ?? "") : ""));
      // Trailing blank lines add nothing; keep the column box as short as its content.
      while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
      const fm = bold ? metrics.bold : metrics.regular;
      p.text({
        x: x + CELL_PAD,
        y: rowsTop - rowTextShift(fm),
        width: c.width - 2 * CELL_PAD,
        lines,
        font: bold ? "bold" : "regular",
        size: SIZE.table,
        color: bold ? COLOR.submit : COLOR.text,
        lineHeight: lh,
        align: c.align,
      });
    }
    x += c.width;
  }
  const noteIndex = slice.findIndex((r) => r.note);
  if (noteIndex >= 0) {
    const note = slice[noteIndex]!.note!;
    p.text({
      x: MARGIN_X + CELL_PAD,
      y: rowsTop + noteIndex * ROW_H + 0.8 - rowTextShift(metrics.regular),
      width: CONTENT_W - 2 * CELL_PAD,
      lines: [truncate(note, metrics.regular, SIZE.table, (CONTENT_W - 2 * CELL_PAD) * PT)],
      font: "regular",
      size: SIZE.table,
      color: COLOR.muted,
      lineHeight: lh,
      align: "center",
    });
  }
}

function mm2pt(v: number): number {
  return v * PT;
}

/**
 * How far (mm) to raise a one-line-per-row text box so that the text sits
 * visually centred in its row: pdfme puts the first baseline at
 * (pitch - size)/2 + ascent below the top; we want it at about
 * pitch/2 + 0.36 * size (half the cap height below the centre).
 */
function rowTextShift(fm: FontMetrics): number {
  const pitch = mm2pt(ROW_H);
  const natural = (pitch - SIZE.table) / 2 + (fm.ascender / fm.unitsPerEm) * SIZE.table;
  const wanted = pitch / 2 + 0.36 * SIZE.table;
  return mm(natural - wanted);
}
