import type { Config } from "../config";
import { listTemplateFields, type TemplateFieldInfo } from "../docx/inventory";
import type { PreDecodedValues } from "../input/base64";
import { loadContextOf, loadDocument, requireDocumentType } from "../input/document";
import { UrlBudget } from "../input/safe-fetch";

/** POST /v1/fields: a DOCX template's content controls, as annotate would match them. */
export async function listFields(
  input: { document: { base64?: string; url?: string } },
  deps: { config: Pick<Config, "maxDocumentBytes" | "allowPrivateUrls"> & Partial<Pick<Config, "fetchTimeoutMs">>; selfHost?: string; preDecoded?: PreDecodedValues },
): Promise<{ fields: TemplateFieldInfo[] }> {
  const doc = await loadDocument(input.document, loadContextOf(deps, new UrlBudget()));
  const docx = requireDocumentType(doc, ["docx"], "fields");
  return { fields: listTemplateFields(docx.bytes) };
}
