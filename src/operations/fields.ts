import type { Config } from "../config";
import { listTemplateFields, type TemplateFieldInfo } from "../docx/inventory";
import type { PreDecodedValues } from "../input/base64";
import { loadDocumentFor } from "../input/document";
import type { FieldsRequestBody } from "../contract/fields";

/** POST /v1/fields: a DOCX template's content controls, as annotate would match them. */
export async function listFields(
  input: FieldsRequestBody,
  deps: {
    config: Pick<Config, "maxDocumentBytes" | "allowPrivateUrls"> & Partial<Pick<Config, "fetchTimeoutMs">>;
    selfHost?: string;
    preDecoded?: PreDecodedValues;
  },
): Promise<{ fields: TemplateFieldInfo[] }> {
  const docx = await loadDocumentFor("fields", ["docx"], input.document, deps);
  return { fields: listTemplateFields(docx.bytes) };
}
