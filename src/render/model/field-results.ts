/**
 * What a field shows when LibreOffice 7.4 opens a DOCX, where that is not the result Word cached
 * (measured on minimal documents; docs/rendering.md, "Field results"). LibreOffice imports the
 * fields it knows as its own fields and computes them, dropping the cached result; the others keep it.
 * - SEQ with a switch (`SEQ Figure \* ARABIC`): a counter per name (case-insensitive) in document
 *   order; `\r n` restarts it at n, `\c` repeats the current value, `\h` is ignored (the number shows),
 *   `\* roman ROMAN alphabetic ALPHABETIC` format it (`Roman`: digits). A SEQ without any
 *   switch keeps its cached result and does not count.
 * - REF to a bookmark: the bookmark's text up to the end of the paragraph it starts in; to a bookmark
 *   the document lacks, "Error: Reference source not found". With \n \r \w \p (paragraph numbers,
 *   above/below) the cached result stays when the bookmark exists.
 * - FORMDROPDOWN: the selected entry (w:result), the first entry when that is missing or out of range,
 *   five en spaces when it has none.
 * - IF, ASK, SET and NEXT show nothing; MACROBUTTON shows its display text.
 * Document property fields are in doc-properties.ts; PAGE, NUMPAGES and SECTIONPAGES in headers and
 * footers are laid out per page.
 */
import { LIMITS } from "../../limits";
import { decodeEntities } from "../../docx/xml";
import { formatNumber } from "./number-format";
import type { NumberFormat } from "./types";
import type { XNode } from "./xml-tree";

/** A field's text instead of the cached result, or (`keepCached`) only where that result is empty. */
export interface FieldResult {
  text: string;
  keepCached: boolean;
}

/** LibreOffice's text for a reference to a bookmark the document does not have. */
export const MISSING_REFERENCE = "Error: Reference source not found";

const computed = (text: string): FieldResult => ({ text, keepCached: false });

/** SEQ counters by upper-case name, in document order. */
export type Sequences = Map<string, number>;

/** The number a SEQ field shows (advancing its counter), or undefined when it keeps its cached result. */
export function sequenceField(instr: string, sequences: Sequences): FieldResult | undefined {
  const m = /^\s*SEQ\s+([^\\]*?)\s*(\\.*)$/is.exec(instr);
  if (!m || !m[1]) return undefined;
  const name = m[1].toUpperCase();
  const switches = m[2]!;
  const restart = /\\r\s*(\d+)/i.exec(switches);
  let n = sequences.get(name) ?? 0;
  if (restart) n = Number(restart[1]);
  else if (!/\\c\b/i.test(switches)) n++;
  if (!sequences.has(name) && sequences.size >= LIMITS.render.fieldResults.maxSequences) return undefined;
  sequences.set(name, n);
  return computed(formatNumber(n, fieldNumberFormat(switches)));
}

/** A field's number format switch (`\* ROMAN`, `\* alphabetic` ...; MERGEFORMAT aside), as PAGE and SEQ fields read it. */
export function fieldNumberFormat(instr: string): NumberFormat {
  const m = /\\\*\s*(\S+)/.exec(instr.replace(/\\\*\s*MERGEFORMAT/gi, ""));
  switch (m?.[1]) {
    case "roman":
      return "lowerRoman";
    case "ROMAN":
      return "upperRoman";
    case "alphabetic":
      return "lowerLetter";
    case "ALPHABETIC":
      return "upperLetter";
    case "Ordinal":
    case "ordinal":
      return "ordinal";
    case "CardText":
      return "cardinalText";
    case "OrdText":
      return "ordinalText";
    default:
      return "decimal";
  }
}

/** The bookmark a REF field names, and whether it shows the bookmark's text (no number or position switch). */
export function referenceTarget(instr: string): { name: string; text: boolean } | undefined {
  const m = /^\s*REF\s+(?:"([^"]*)"|([^\s\\]+))(.*)$/is.exec(instr);
  const name = m?.[1] ?? m?.[2];
  if (!name) return undefined;
  return { name, text: !/\\[nrwp]\b/i.test(m![3]!) };
}

/** FORMDROPDOWN: the entry shown for a w:ddList. */
export function dropdownResult(ddList: XNode): FieldResult {
  const entries = ddList.children.filter((c) => c.name === "listEntry").map((c) => c.attr("val") ?? "");
  const selected = Number(ddList.child("result")?.attr("val") ?? 0);
  // No entries: LibreOffice shows five en spaces.
  return computed(entries[Number.isInteger(selected) ? selected : 0] ?? entries[0] ?? "\u2002".repeat(5));
}

/** A field instruction's name (its first word), upper-case. */
export function fieldName(instr: string): string {
  return (/^\s*(\S+)/.exec(instr)?.[1] ?? "").toUpperCase();
}

/** IF, ASK, SET, NEXT (nothing) and MACROBUTTON (its display text); undefined for other fields. */
export function otherFieldResult(instr: string): FieldResult | undefined {
  switch (fieldName(instr)) {
    case "IF":
    case "ASK":
    case "SET":
    case "NEXT":
      return computed("");
    case "MACROBUTTON":
      // The display text is all after the macro name, spaces at its end included (measured).
      return computed(/^\s*\S+\s+\S+\s+(.*)$/s.exec(instr)?.[1] ?? "");
    default:
      return undefined;
  }
}

/**
 * Bookmarks for REF fields: every name document.xml declares (read from its bytes once, the first
 * time a reference needs it, so a later bookmark is known) and each bookmark's text as the
 * document is read, up to the end of the paragraph it starts in.
 */
export class Bookmarks {
  private names?: Set<string>;
  private readonly texts = new Map<string, string>();
  /** Bookmarks collecting text: id → name. */
  private readonly open = new Map<string, string>();

  constructor(private readonly documentBytes: () => Uint8Array | undefined) {}

  /** Whether the document has the bookmark; undefined when more bookmarks than the budget keeps leave it unknown. */
  has(name: string): boolean | undefined {
    this.names ??= declaredBookmarks(this.documentBytes());
    if (this.names.has(name) || this.texts.has(name)) return true;
    return this.names.size < LIMITS.render.fieldResults.maxBookmarks ? false : undefined;
  }

  /** Whether the bookmark's text is (or, not read yet, will be) collected within the budget. */
  collects(name: string): boolean {
    return this.texts.has(name) || this.texts.size < LIMITS.render.fieldResults.maxBookmarks;
  }

  /** The text a finished bookmark holds (undefined while it has not been read to its end). */
  text(name: string): string | undefined {
    return [...this.open.values()].includes(name) ? undefined : this.texts.get(name);
  }

  start(id: string, name: string): void {
    if (this.texts.has(name) || this.texts.size >= LIMITS.render.fieldResults.maxBookmarks) return;
    this.texts.set(name, "");
    this.open.set(id, name);
  }

  end(id: string): void {
    this.open.delete(id);
  }

  /** Text drawn while bookmarks are open. */
  add(text: string): void {
    for (const name of this.open.values()) {
      const t = this.texts.get(name)!;
      if (t.length < LIMITS.render.fieldResults.maxBookmarkText)
        this.texts.set(name, (t + text).slice(0, LIMITS.render.fieldResults.maxBookmarkText));
    }
  }

  /** A paragraph ended: bookmarks still open stop collecting (a reference shows their first paragraph). */
  endParagraph(): void {
    this.open.clear();
  }
}

/** Bookmark names declared in a part's XML bytes, decoded in slices (the whole text never exists at once). */
function declaredBookmarks(bytes: Uint8Array | undefined): Set<string> {
  const names = new Set<string>();
  if (!bytes) return names;
  const decoder = new TextDecoder();
  const SLICE = 1 << 20;
  const tag = /<(?:[\w.-]+:)?bookmarkStart\b[^>]*?\s(?:[\w.-]+:)?name\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  let carry = "";
  for (let at = 0; at < bytes.length; at += SLICE) {
    const text = carry + decoder.decode(bytes.subarray(at, at + SLICE), { stream: at + SLICE < bytes.length });
    let last = 0;
    for (const m of text.matchAll(tag)) {
      if (names.size >= LIMITS.render.fieldResults.maxBookmarks) return names;
      names.add(decodeEntities(m[1] ?? m[2]!));
      last = m.index + m[0].length;
    }
    // A tag cut by the slice end is read again with the next slice (a name found twice is one name).
    carry = text.slice(Math.max(last, text.length - 512));
  }
  return names;
}
