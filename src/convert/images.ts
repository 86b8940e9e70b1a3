/**
 * The pictures a Markdown or HTML document names: `data:` URIs are decoded, `https:` URLs fetched
 * under the SSRF rules of src/input (a forbidden address is an error, as everywhere in Signet).
 * A picture that cannot be had (a relative path, a failed fetch, SVG or another format Word
 * documents cannot hold here) is left out: the writer shows its alt text, and the caller gets a
 * warning naming it, so one broken badge does not cost the whole document.
 */
import { readImageInfo } from "../docx/images";
import { SignetError, UrlForbidden } from "../errors";
import { decodeBase64Payload } from "../input/base64";
import { fetchPublicResource, type UrlBudget } from "../input/safe-fetch";
import { LIMITS } from "../limits";
import { ConvertLimitExceeded } from "./errors";
import type { EmbeddableImage } from "./docx-writer";
import type { Block, DocumentModel, Inline } from "./model";

export interface ImageFetchOptions {
  allowPrivateUrls: boolean;
  selfHost?: string;
  maxImageBytes: number;
  timeoutMs: number;
  urlBudget: UrlBudget;
  fetch?: typeof fetch;
}

/** Every distinct picture source of the document, in document order. */
export function imageSources(model: DocumentModel): string[] {
  const seen = new Set<string>();
  const inlines = (list: readonly Inline[]) => {
    for (const i of list) {
      if (i.kind === "image") seen.add(i.src);
      else if (i.kind === "link") inlines(i.children);
    }
  };
  const blocks = (list: readonly Block[]) => {
    for (const b of list) {
      if (b.kind === "paragraph") inlines(b.inlines);
      else if (b.kind === "table") for (const r of b.rows) for (const c of r.cells) blocks(c.blocks);
    }
  };
  blocks(model.blocks);
  for (const f of model.footnotes) blocks(f.blocks);
  return [...seen];
}

export async function resolveImages(
  sources: readonly string[],
  opts: ImageFetchOptions,
): Promise<{ images: Map<string, EmbeddableImage>; warnings: string[] }> {
  if (sources.length > LIMITS.convert.maxImages) {
    throw new ConvertLimitExceeded(
      `The document names ${sources.length} pictures; at most ${LIMITS.convert.maxImages} are embedded.`,
    );
  }
  const images = new Map<string, EmbeddableImage>();
  const warnings: string[] = [];
  const short = (src: string) => (src.length > 80 ? `${src.slice(0, 77)}...` : src);
  await Promise.all(
    sources.map(async (src) => {
      try {
        const bytes = await imageBytes(src, opts);
        if (!bytes) {
          warnings.push(
            `The picture ${short(src)} is neither a data: URI nor an https: URL; its alt text is shown instead.`,
          );
          return;
        }
        images.set(src, { bytes, info: readImageInfo(bytes, `The picture ${short(src)}`) });
      } catch (err) {
        // Forbidden addresses stay errors (the SSRF rule is not a warning); limits too.
        if (err instanceof UrlForbidden || err instanceof ConvertLimitExceeded) throw err;
        if (!(err instanceof SignetError)) throw err;
        warnings.push(`${err.message.replace(/\.$/, "")} (${short(src)}); its alt text is shown instead.`);
      }
    }),
  );
  return { images, warnings };
}

async function imageBytes(src: string, opts: ImageFetchOptions): Promise<Uint8Array | null> {
  if (/^data:/i.test(src)) return decodeBase64Payload(src, { maxBytes: opts.maxImageBytes }).bytes;
  // Plain http: pictures (old README badges) are left out like relative ones; a private or
  // loopback address stays a 422 url_forbidden, as for every URL Signet is given.
  if (!/^https:\/\//i.test(src) && !(opts.allowPrivateUrls && /^http:\/\//i.test(src))) return null;
  opts.urlBudget.take();
  const res = await fetchPublicResource(src, {
    allowPrivate: opts.allowPrivateUrls,
    selfHost: opts.selfHost,
    maxBytes: opts.maxImageBytes,
    timeoutMs: opts.timeoutMs,
    maxRedirects: LIMITS.maxRedirects,
    accept: "image/png, image/jpeg, image/gif;q=0.9, */*;q=0.1",
    fetch: opts.fetch,
  });
  return res.bytes;
}
