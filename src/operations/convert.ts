import type { Config } from "../config";
import { sourceToDocx, type SourceFormat } from "../convert";
import { DOCX_MEDIA_TYPE } from "../convert/docx-writer";
import { ConvertLimitExceeded } from "../convert/errors";
import { DocxTemplate } from "../docx/template";
import { FIXED_DOS_DATE, FIXED_DOS_TIME, writeZip } from "../docx/zip";
import {
  ConfigurationError,
  LimitExceeded,
  SignetError,
  UnprocessableContent,
  UnsupportedDocumentType,
} from "../errors";
import type { PreDecodedValues } from "../input/base64";
import { loadContextOf, loadDocument, requireDocumentType, type DocumentInput } from "../input/document";
import { UrlBudget } from "../input/safe-fetch";
import { sniffDocumentType } from "../input/sniff";
import { LIMITS } from "../limits";
import { assertRenderable, renderDocxToPdf } from "../render";
import type { FontSource } from "../render/fonts/types";
import { concatBytes } from "../util/bytes";

/**
 * DOCX → PDF for the operations (annotate `to=pdf`, signing a DOCX). The renderer degrades on
 * constructs it cannot draw; what still escapes it is reported as an unusable document (422),
 * never as a crash, and logged so the renderer can learn the case.
 */
export async function convertDocxToPdf(docx: Uint8Array, fonts: FontSource | undefined): Promise<Uint8Array> {
  if (!fonts)
    throw new ConfigurationError("The fonts for DOCX rendering are not configured (static-assets binding ASSETS).");
  try {
    return await renderDocxToPdf(docx, { fonts });
  } catch (err) {
    if (err instanceof SignetError) throw err;
    console.error(
      JSON.stringify({ level: "error", event: "docx_render_failed", message: String((err as Error)?.message ?? err) }),
    );
    throw new UnprocessableContent("docx_invalid", "The DOCX could not be laid out as PDF.");
  }
}

// ---------------------------------------------------------------------------------------------
// POST /v1/convert

export type ConvertFrom = "docx" | SourceFormat;
export type ConvertTo = "pdf" | "docx";

export interface ConvertDeps {
  config: Pick<Config, "maxDocumentBytes" | "allowPrivateUrls"> &
    Partial<Pick<Config, "fetchTimeoutMs" | "maxImageBytes">>;
  selfHost?: string;
  fonts?: FontSource;
  preDecoded?: PreDecodedValues;
  fetch?: typeof fetch;
}

export interface ConvertResult {
  bytes: Uint8Array;
  contentType: string;
  /** Pictures left out (shown as their alt text), in words. */
  warnings: string[];
}

/** The document as bytes (multipart or raw body) or as `{ base64 | url }` (JSON). */
export type ConvertInput = { bytes: Uint8Array } | { document: DocumentInput };

/**
 * The convert operation: DOCX, Markdown or HTML in; PDF (our renderer) or DOCX out. A Markdown or
 * HTML source becomes a DOCX first (src/convert), so the PDF is exactly what the DOCX shows.
 */
export async function convertDocument(
  input: ConvertInput,
  from: ConvertFrom,
  to: ConvertTo,
  deps: ConvertDeps,
): Promise<ConvertResult> {
  const urlBudget = new UrlBudget();
  let bytes: Uint8Array;
  if ("bytes" in input) {
    bytes = input.bytes;
    if (bytes.length > deps.config.maxDocumentBytes) {
      throw new LimitExceeded(
        "document_too_large",
        `The document is larger than ${deps.config.maxDocumentBytes} bytes.`,
      );
    }
  } else {
    bytes = (await loadDocument(input.document, loadContextOf(deps, urlBudget))).bytes;
  }

  let docx: Uint8Array;
  let warnings: string[] = [];
  if (from === "docx") {
    requireDocumentType({ bytes, type: sniffDocumentType(bytes) }, ["docx"], "convert from docx");
    if (to === "pdf") assertRenderable(bytes);
    docx = normalizeDocx(bytes);
  } else {
    const text = sourceText(bytes, from);
    const made = await sourceToDocx(from, text, {
      allowPrivateUrls: deps.config.allowPrivateUrls,
      selfHost: deps.selfHost,
      maxImageBytes: deps.config.maxImageBytes ?? LIMITS.docx.maxImageBytes,
      timeoutMs: deps.config.fetchTimeoutMs ?? LIMITS.fetchTimeoutMs,
      urlBudget,
      fetch: deps.fetch,
    });
    docx = made.docx;
    warnings = made.warnings;
    // What we wrote is held to the renderer's limits too, before it is laid out.
    if (to === "pdf") assertRenderable(docx);
  }
  if (to === "docx") return { bytes: docx, contentType: DOCX_MEDIA_TYPE, warnings };
  return { bytes: await convertDocxToPdf(docx, deps.fonts), contentType: "application/pdf", warnings };
}

const LABEL: Record<SourceFormat, string> = { md: "Markdown", html: "HTML" };

/** Markdown and HTML are text: UTF-8 (a BOM is dropped); a binary or office file is refused. */
function sourceText(bytes: Uint8Array, from: SourceFormat): string {
  if (bytes.length > LIMITS.convert.maxSourceBytes) {
    throw new ConvertLimitExceeded(
      `${LIMITS.convert.maxSourceBytes} bytes of ${LABEL[from]} are converted at most; this source has ${bytes.length}.`,
    );
  }
  const type = sniffDocumentType(bytes);
  if (type !== "unknown") {
    throw new UnsupportedDocumentType(
      `Expected ${LABEL[from]} text for convert from=${from}; the bytes look like a ${type.toUpperCase()} file.`,
    );
  }
  let nul = 0;
  for (let i = 0; i < Math.min(bytes.length, 8192); i++) if (bytes[i] === 0) nul++;
  if (nul)
    throw new UnsupportedDocumentType(
      `Expected ${LABEL[from]} text for convert from=${from}; the bytes are binary (NUL bytes), or UTF-16, which is not read.`,
    );
  return new TextDecoder("utf-8").decode(bytes);
}

/**
 * `from=docx&to=docx`: the package checked as annotate checks a template (ZIP limits, main part,
 * no DTD in any part) and written again with its parts in a stable order ([Content_Types].xml and
 * the package relationships first) and fixed times; part contents are carried byte for byte,
 * except that, as from annotate, external relationships other than hyperlinks are removed with
 * what refers to them (src/docx/external-links.ts).
 */
function normalizeDocx(bytes: Uint8Array): Uint8Array {
  const template = DocxTemplate.open(bytes);
  const rank = (name: string) => (name === "[Content_Types].xml" ? 0 : name === "_rels/.rels" ? 1 : 2);
  const entries = template.pkg
    .outputEntries()
    .filter((o) => !o.name.endsWith("/"))
    .sort((a, b) => rank(a.name) - rank(b.name))
    .map((o) => ({ ...o.entry, dosTime: FIXED_DOS_TIME, dosDate: FIXED_DOS_DATE }));
  return concatBytes(writeZip(entries).segments);
}
