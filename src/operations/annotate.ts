import type { Config } from "../config";
import { InvalidRequest, LimitExceeded, UnprocessableContent } from "../errors";
import { imageSource, type TemplateField } from "../docx/fields";
import type { PreparedImage } from "../docx/fill";
import { claimedImageType, readImageInfo } from "../docx/images";
import { DocxTemplate } from "../docx/template";
import { decodeBase64Payload, type PreDecodedValues } from "../input/base64";
import { loadDocumentFor } from "../input/document";
import { fetchPublicResource, UrlBudget } from "../input/safe-fetch";
import { LIMITS } from "../limits";
import { assertRenderable, checkPngData, readPngHeader } from "../render";
import type { FontSource } from "../render/fonts/types";
import { concatBytes } from "../util/bytes";
import { convertDocxToPdf } from "./convert";
import type { AnnotateRequestBody } from "../contract/annotate";

/**
 * The annotate operation: template in, filled DOCX out. Order matters for "fast, nothing
 * half-written": the request shape is checked first, then the template is opened (package limits,
 * DTD rule, controls found), fields are matched (strict mode fails here), and only then are the
 * images of matched fields decoded or fetched, all before any part is rewritten.
 */

export const DOCX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

export type OutputFormat = "docx" | "pdf";

export type AnnotateInput = AnnotateRequestBody;

export interface AnnotateDeps {
  config: Pick<Config, "maxDocumentBytes" | "allowPrivateUrls"> &
    Partial<Pick<Config, "fetchTimeoutMs" | "maxImageBytes">>;
  selfHost?: string;
  format: OutputFormat;
  strict: boolean;
  fetch?: typeof fetch;
  /** Large base64 values the HTTP edge decoded while reading the body. */
  preDecoded?: PreDecodedValues;
  /** Fonts for `to=pdf` (the static-assets binding in the worker). */
  fonts?: FontSource;
}

export interface AnnotateResult {
  output: { segments: Uint8Array[]; length: number };
  contentType: string;
  /** Selectors of the fields that matched nothing, as the caller gave them. */
  unmatched: ({ id: string | number } | { group: string | number })[];
}

export async function annotateDocument(input: AnnotateInput, deps: AnnotateDeps): Promise<AnnotateResult> {
  const fields: TemplateField[] = input.fields.map((f) => ({
    ...f,
    id: f.id === undefined ? undefined : String(f.id),
    group: f.group === undefined ? undefined : String(f.group),
  }));

  // Every URL the request may fetch, counted before anything is fetched.
  const urlBudget = new UrlBudget();
  const imageUrls = new Set<string>();
  fields.forEach((f) => {
    if (f.type !== "image" && f.type !== "signature") return;
    const src = imageSource(f.type, f.value, (v) => deps.preDecoded?.has(v) ?? false);
    if (src.kind === "url") imageUrls.add(src.url);
  });
  const urlCount = imageUrls.size + (input.document.url !== undefined ? 1 : 0);
  if (urlCount > urlBudget.max) {
    throw new InvalidRequest(
      "invalid_request",
      `The request names ${urlCount} URLs (document and images); at most ${urlBudget.max} are fetched per request.`,
    );
  }

  const doc = await loadDocumentFor("annotate", ["docx"], input.document, deps, urlBudget);

  // A template too large to render is refused before the (memory-hungry) fill.
  if (deps.format === "pdf") assertRenderable(doc.bytes);
  const template = DocxTemplate.open(doc.bytes);
  const { matched, unmatched } = template.match(fields);
  const selectors = unmatchedSelectors(input.fields, unmatched);
  if (deps.strict && selectors.length) {
    const list = selectors
      .map((s) => ("id" in s ? `id ${JSON.stringify(s.id)}` : `group ${JSON.stringify(s.group)}`))
      .join(", ");
    throw new UnprocessableContent("field_not_found", `No content control in the template matches ${list}.`, {
      errors: unmatched.map((i) => ({
        path: `fields.${i}`,
        message:
          input.fields[i]!.id !== undefined
            ? `no control with id ${JSON.stringify(input.fields[i]!.id)}`
            : `no control in group ${JSON.stringify(input.fields[i]!.group)}`,
      })),
    });
  }

  // Pictures of the matched image and signature fields; the same source is read once.
  const images = new Map<number, PreparedImage>();
  const bySource = new Map<string, Promise<PreparedImage>>();
  const pending: Promise<void>[] = [];
  fields.forEach((f, i) => {
    if ((f.type !== "image" && f.type !== "signature") || !matched[i]!.length) return;
    const src = imageSource(f.type, f.value, (v) => deps.preDecoded?.has(v) ?? false);
    if (src.kind === "typed") return;
    const key = src.kind === "url" ? `url:${src.url}` : `data:${src.text}`;
    let p = bySource.get(key);
    if (!p) {
      p =
        src.kind === "url"
          ? fetchImage(src.url, key, i, deps, urlBudget)
          : Promise.resolve(
              decodeImage(src.text, key, i, deps.config.maxImageBytes ?? LIMITS.docx.maxImageBytes, deps.preDecoded),
            );
      bySource.set(key, p);
    }
    pending.push(p.then((img) => void images.set(i, img)));
  });
  await Promise.all(pending);
  // A picture painted into the PDF is decoded: one whose data holds more than its header says is refused.
  if (deps.format === "pdf")
    for (const [i, image] of images) if (image.info.type === "png") assertPngDecodable(image.bytes, i);

  const output = template.fill(fields, images);
  if (deps.format === "pdf") {
    const pdf = await convertDocxToPdf(concatBytes(output.segments), deps.fonts);
    return { output: { segments: [pdf], length: pdf.length }, contentType: "application/pdf", unmatched: selectors };
  }
  return { output, contentType: DOCX_MEDIA_TYPE, unmatched: selectors };
}

function unmatchedSelectors(raw: AnnotateInput["fields"], unmatched: number[]): AnnotateResult["unmatched"] {
  const seen = new Set<string>();
  const out: AnnotateResult["unmatched"] = [];
  for (const i of unmatched) {
    const f = raw[i]!;
    const sel = f.id !== undefined ? { id: f.id } : { group: f.group! };
    const key = JSON.stringify(sel);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(sel);
  }
  return out;
}

function checkImage(bytes: Uint8Array, claimed: string | null | undefined, key: string, i: number): PreparedImage {
  const label = `The image of fields.${i}`;
  const info = readImageInfo(bytes, label);
  const claim = claimedImageType(claimed);
  if (claim === "other" || (claim !== null && claim !== info.type)) {
    throw new UnprocessableContent(
      "image_invalid",
      `${label} claims to be ${claimed} but its bytes are a ${info.type.toUpperCase()} file.`,
    );
  }
  return { key, bytes, info };
}

function assertPngDecodable(bytes: Uint8Array, i: number): void {
  const header = readPngHeader(bytes);
  const problem = !header
    ? "its header cannot be read"
    : !checkPngData(bytes, header).fits
      ? `its image data inflates past the ${header.width}x${header.height} pixels its header gives`
      : null;
  if (problem)
    throw new UnprocessableContent(
      "image_invalid",
      `The image of fields.${i} is a PNG that cannot be drawn: ${problem}.`,
    );
}

function decodeImage(
  text: string,
  key: string,
  i: number,
  maxBytes: number,
  preDecoded?: PreDecodedValues,
): PreparedImage {
  let decoded;
  try {
    decoded = decodeBase64Payload(text, { maxBytes, preDecoded });
  } catch (err) {
    if (err instanceof LimitExceeded) {
      throw new UnprocessableContent("image_too_large", `The image of fields.${i} is larger than ${maxBytes} bytes.`);
    }
    if (err instanceof InvalidRequest && !/^data:/i.test(text) && !preDecoded?.has(text)) {
      throw new UnprocessableContent(
        "image_invalid",
        `The value of fields.${i} is neither a data: URI, a URL nor base64 image data.`,
      );
    }
    throw err;
  }
  return checkImage(decoded.bytes, decoded.mediaType, key, i);
}

async function fetchImage(
  url: string,
  key: string,
  i: number,
  deps: AnnotateDeps,
  budget: UrlBudget,
): Promise<PreparedImage> {
  budget.take();
  const res = await fetchPublicResource(url, {
    allowPrivate: deps.config.allowPrivateUrls,
    selfHost: deps.selfHost,
    maxBytes: deps.config.maxImageBytes ?? LIMITS.docx.maxImageBytes,
    timeoutMs: deps.config.fetchTimeoutMs ?? LIMITS.fetchTimeoutMs,
    maxRedirects: LIMITS.maxRedirects,
    accept: "image/png, image/jpeg, image/gif;q=0.9, */*;q=0.1",
    fetch: deps.fetch,
  });
  return checkImage(res.bytes, res.contentType, key, i);
}
