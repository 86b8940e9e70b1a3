import type { ChangeLevel } from "../status";
import type { Owner } from "./graph";

/**
 * The difference analysis rules, as data (after pyHanko's `diff_analysis/rules`).
 * Reject by default: a dictionary the analysis understands lists the keys that
 * may change and at which level; any other key that changes is `otherwise`
 * (always `other` here). Objects the rules do not understand are judged by the
 * structure that owns them (`OWNER_LEVELS`).
 *
 * `what` texts are clauses for the report ("page 1 was changed"); `{page}` and
 * `{field}` are filled in by the analysis.
 */

export type KeyRule =
  /** Any change of this key is a change at `level`; removing it, at `removed` when given. */
  | { level: ChangeLevel; what?: string; removed?: { level: ChangeLevel; what: string } }
  /** Compare old and new values (resolved) with another dictionary rule. */
  | { compare: DictRuleName }
  /** List semantics: what was added or removed decides. */
  | { list: ListKind }
  /** The EmbeddedFiles name tree: added files are fine, replaced or removed ones are not. */
  | { embeddedFiles: true }
  /** A signature field receiving its value: a signature, or a document time-stamp (`lta`). */
  | { signatureValue: true }
  /** Not judged here (a back-reference, judged where it points). */
  | { ignore: true };

export type ListKind = "fields" | "kids" | "annots" | "associated-files";

export interface DictRule {
  keys: Readonly<Record<string, KeyRule>>;
  otherwise: ChangeLevel;
  /** What a change of an unlisted key is called. */
  what: string;
  /** A dictionary that did not exist when signing is judged as if it had been empty. */
  absentIsEmpty?: true;
}

export type DictRuleName =
  | "catalog"
  | "acroform"
  | "names"
  | "page-tree-node"
  | "page"
  | "field"
  | "signature-field"
  | "unsigned-signature-field"
  | "signed-signature-field";

export const DICT_RULES: Readonly<Record<DictRuleName, DictRule>> = {
  catalog: {
    what: "the document catalog was changed",
    otherwise: "other",
    keys: {
      AcroForm: { compare: "acroform" },
      Names: { compare: "names" },
      AF: { list: "associated-files" },
      /** Validation data may be added or updated, never taken away (PAdES; pyHanko, iText). */
      DSS: {
        level: "lta",
        what: "validation data (DSS) was added",
        removed: { level: "other", what: "the validation data (DSS) was removed" },
      },
      Metadata: { level: "lta", what: "the document metadata was updated" },
      Extensions: {
        level: "lta",
        what: "developer extensions were declared",
        removed: { level: "other", what: "the developer extensions were removed" },
      },
      /** Tagged-PDF flags (pyHanko exempts them too). */
      MarkInfo: { level: "lta", what: "the document's tagging flags were updated" },
      /** Validation tools raise the version when they add PAdES-LTV structures; it shows nothing. */
      Version: { level: "lta", what: "the PDF version was raised" },
    },
  },
  acroform: {
    what: "the form dictionary was changed",
    otherwise: "other",
    keys: {
      Fields: { list: "fields" },
      SigFlags: { level: "lta", what: "the signature flags were set" },
      DR: { level: "form_filling", what: "the form's default resources were changed" },
      DA: { level: "form_filling", what: "the form's default appearance was changed" },
      NeedAppearances: { level: "form_filling", what: "the form's appearance flag was changed" },
    },
  },
  names: {
    what: "the document's name dictionary was changed",
    otherwise: "other",
    keys: { EmbeddedFiles: { embeddedFiles: true } },
    absentIsEmpty: true,
  },
  "page-tree-node": {
    what: "the page tree was changed",
    otherwise: "other",
    keys: {
      Kids: { list: "kids" },
      Count: { level: "appended_pages", what: "pages were appended" },
      Parent: { ignore: true },
    },
  },
  page: {
    what: "page {page} was changed",
    otherwise: "other",
    keys: { Annots: { list: "annots" }, Parent: { ignore: true } },
  },
  field: {
    what: "form field {field} was changed",
    otherwise: "other",
    keys: {
      V: { level: "form_filling", what: "form field {field} was filled in" },
      AS: { level: "form_filling", what: "form field {field} was filled in" },
      I: { level: "form_filling", what: "form field {field} was filled in" },
      RV: { level: "form_filling", what: "form field {field} was filled in" },
      AP: { level: "form_filling", what: "the appearance of form field {field} was updated" },
      MK: { level: "form_filling", what: "the appearance of form field {field} was updated" },
      Parent: { ignore: true },
      P: { ignore: true },
    },
  },
  /** A signature field that was empty when signed and that a new signature fills now. */
  "signature-field": {
    what: "signature field {field} was changed",
    otherwise: "other",
    keys: {
      V: { signatureValue: true },
      AP: { level: "signatures", what: "signature field {field} was signed" },
      AS: { level: "signatures", what: "signature field {field} was signed" },
      MK: { level: "signatures", what: "signature field {field} was signed" },
      /** Signers set Print and Locked on the widget they sign. */
      F: { level: "signatures", what: "signature field {field} was signed" },
      Parent: { ignore: true },
      P: { ignore: true },
    },
  },
  /**
   * A signature field no new signature fills: any change is `other`. Its widget still paints its
   * appearance over the page (a handwritten "signature", "APPROVED"), but signs nothing.
   */
  "unsigned-signature-field": {
    what: "unsigned signature field {field} was changed",
    otherwise: "other",
    keys: { Parent: { ignore: true }, P: { ignore: true } },
  },
  "signed-signature-field": {
    what: "signature field {field}, already signed, was changed",
    otherwise: "other",
    keys: { Parent: { ignore: true }, P: { ignore: true } },
  },
};

/**
 * Objects no dictionary rule understands (content streams, resources, appearance
 * streams, DSS entries, attachments...) are judged by their owner, when they
 * existed in the signed revision and changed.
 */
export const OWNER_LEVELS: Readonly<Record<Owner["kind"], { level: ChangeLevel; what: string }>> = {
  /** Content, resources, boxes of a page that was signed (appended pages: see the analysis). */
  page: { level: "other", what: "page {page} was changed" },
  "page-tree": { level: "other", what: "the page tree was changed" },
  annotation: { level: "annotations", what: "an annotation on page {page} was changed" },
  /** Non-signature fields; signature fields are decided by whether they were signed. */
  field: { level: "form_filling", what: "form field {field} was filled in" },
  signature: { level: "other", what: "the signature of field {field} was changed" },
  dss: { level: "lta", what: "validation data (DSS) was updated" },
  metadata: { level: "lta", what: "the document metadata was updated" },
  info: { level: "lta", what: "the document information was updated" },
  "form-resources": { level: "form_filling", what: "the form's default resources were changed" },
  embedded: { level: "other", what: "an attached file was changed" },
  /** An indirect /Extensions dictionary rewritten (pyHanko accepts it at its LTA level). */
  extensions: { level: "lta", what: "developer extensions were declared" },
  catalog: { level: "other", what: "the document's {key} was changed" },
};
