/**
 * Signet's bounded PDF reader, shared by signing and verification. Layers:
 * `lexer` (tokens over bytes) → `parser` (objects, streams) → `xref` (sections,
 * /Prev chain, recovery scan) → `reader` (document: lazy objects, object
 * streams, revisions, page tree). `filters` decodes streams within budgets;
 * `crypt` is where decryption will plug in.
 */
export { PdfReader, type Revision, type XrefEntry, type PdfReaderOptions } from "./reader";
export { PdfBudgetExceeded, type PdfLimits } from "./budget";
