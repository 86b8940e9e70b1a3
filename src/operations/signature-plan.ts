/**
 * What a sign request's `signature` options mean for this document: which field is signed (an
 * empty field of the document, or Signet's own), where a visible signature goes and what it shows,
 * and what the field's seed values and lock ask of the signature. Decided before anything is
 * signed, so a request the document cannot honour is a 422 that costs no signature.
 */
import type { Config } from "../config";
import type { SigningIdentity } from "../cms/signing-identity";
import { UnprocessableContent } from "../errors";
import type { PreDecodedValues } from "../input/base64";
import { decodeSignatureImage, type SignatureImage } from "../input/signature-image";
import type { PdfReader } from "../pdf/reader";
import { buildAppearance, type AppearanceFonts } from "../pdf/sign/appearance";
import { chooseSignatureField, pagePlacement, widgetPlacement } from "../pdf/sign/field-choice";
import type { SignatureFieldInfo, SigningInspection } from "../pdf/sign/inspect";
import { applySeedValue, type SubFilter } from "../pdf/sign/seed-value";
import type { VisibleAppearance } from "../pdf/sign/sign-pdf";
import type { SignatureOptionsBody } from "../contract/sign";

/** `signature` of the sign request (src/contract/sign.ts); its `level` is read by operations/sign.ts. */
export type SignatureRequest = SignatureOptionsBody;

export interface SignaturePlan {
  field: SignatureFieldInfo | null;
  appearance: VisibleAppearance | undefined;
  subFilter: SubFilter;
  /** /Reason of the signature dictionary (null: none). */
  reason: string | null;
  /** A failed time-stamp must fail the request (the field's seed value requires one). */
  timestampRequired: boolean;
  warnings: string[];
}

export function planSignature(
  reader: PdfReader,
  inspection: SigningInspection,
  request: SignatureRequest | undefined,
  ctx: {
    identity: SigningIdentity;
    config: Config;
    signerName: string;
    signedAt: Date;
    /** The signature gets a time-stamp (a level above B-B, with TSA_URL). */
    timestamped: boolean;
    fonts: () => AppearanceFonts;
    preDecoded?: PreDecodedValues;
  },
): SignaturePlan {
  const wanted = request?.appearance;
  const position =
    wanted?.page !== undefined
      ? { page: wanted.page, x: wanted.x!, y: wanted.y!, width: wanted.width!, height: wanted.height! }
      : undefined;
  const choice = chooseSignatureField(inspection, { name: request?.field, placed: position !== undefined });
  const { field } = choice;
  const seed = applySeedValue(reader, field?.seedValue ?? null, {
    fieldName: field?.name ?? "",
    digestAlgorithm: ctx.identity.signer.digestAlgorithm,
    requestedReason: request?.reason,
    timestampAvailable: ctx.timestamped,
    certificates: ctx.identity.certificatesDer,
  });

  let appearance: VisibleAppearance | undefined;
  if (wanted) {
    let placement: { pageIndex: number; rect: [number, number, number, number] };
    if (field) {
      const widget = widgetPlacement(reader, field);
      if (!widget)
        throw invalidAppearance(
          `The signature field "${field.name}" has no widget on a page to draw the signature in.`,
        );
      const [x1, y1, x2, y2] = widget.rect;
      if (x2 - x1 < 1 || y2 - y1 < 1) {
        throw invalidAppearance(
          `The signature field "${field.name}" has no area on its page (an invisible field); sign it without an appearance, or place a new signature with page, x, y, width and height.`,
        );
      }
      placement = widget;
    } else {
      if (!position) {
        throw invalidAppearance(
          "A visible signature needs a place: give signature.appearance page, x, y, width and height, or signature.field naming an empty signature field of the document.",
        );
      }
      refuseNewVisibleField(inspection);
      placement = pagePlacement(reader, position);
    }
    const image: SignatureImage | undefined = wanted.image
      ? decodeSignatureImage(wanted.image, { maxBytes: ctx.config.maxImageBytes, preDecoded: ctx.preDecoded })
      : undefined;
    // The request's own reason is shown (not Signet's default one), unless the field asks for none.
    const shownReason = seed.reason === null ? null : (request?.reason ?? null);
    appearance = {
      ...placement,
      draw: (context, width, height) =>
        buildAppearance(
          context,
          {
            width,
            height,
            signerName: ctx.signerName,
            signedAt: ctx.signedAt,
            reason: shownReason,
            ...(image ? { image } : {}),
          },
          ctx.fonts(),
        ),
    };
  }

  return {
    field,
    appearance,
    subFilter: seed.subFilter,
    reason: seed.reason === undefined ? `Signed electronically by ${ctx.signerName}` : seed.reason,
    timestampRequired: seed.timestampRequired,
    warnings: choice.warnings,
  };
}

/**
 * A new visible field after a certification, or where an earlier signature's lock covers it, is a
 * change validators reject (pyHanko: new visible signature fields are not allowed after a
 * certification; a field lock covers new fields unless it lists the ones it includes).
 */
function refuseNewVisibleField(inspection: SigningInspection) {
  if (inspection.docMdp !== null) {
    throw new UnprocessableContent(
      "appearance_not_allowed",
      `The document is certified (DocMDP P${inspection.docMdp}): a new visible signature field would invalidate the certification in other validators (pyHanko). Sign one of its empty signature fields (signature.field) or sign without an appearance.`,
    );
  }
  if (inspection.fieldLocks.some((lock) => lock.action !== "Include")) {
    throw new UnprocessableContent(
      "appearance_not_allowed",
      "An earlier signature locks the document's fields (FieldMDP All or Exclude): a new visible signature field would count as a change to a locked field. Sign without an appearance.",
    );
  }
}

function invalidAppearance(message: string) {
  return new UnprocessableContent("appearance_invalid", message);
}
