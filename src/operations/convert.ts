import { ConfigurationError, SignetError, UnprocessableContent } from "../errors";
import { renderDocxToPdf } from "../render";
import type { FontSource } from "../render/fonts/types";

/**
 * DOCX → PDF for the operations (annotate `to=pdf`, signing a DOCX). The renderer degrades on
 * constructs it cannot draw; what still escapes it is reported as an unusable document (422),
 * never as a crash, and logged so the renderer can learn the case.
 */
export async function convertDocxToPdf(docx: Uint8Array, fonts: FontSource | undefined): Promise<Uint8Array> {
  if (!fonts) throw new ConfigurationError("The fonts for DOCX rendering are not configured (static-assets binding ASSETS).");
  try {
    return await renderDocxToPdf(docx, { fonts });
  } catch (err) {
    if (err instanceof SignetError) throw err;
    console.error(JSON.stringify({ level: "error", event: "docx_render_failed", message: String((err as Error)?.message ?? err) }));
    throw new UnprocessableContent("docx_invalid", "The DOCX could not be laid out as PDF.");
  }
}
