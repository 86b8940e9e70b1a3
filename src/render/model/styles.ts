/**
 * word/styles.xml: docDefaults and the paragraph, character and table styles, with basedOn
 * chains resolved (cycles and overlong chains cut) and cached per style id.
 */
import type { XNode } from "./xml-tree";
import {
  emptyPara,
  overlayPara,
  overlayRun,
  type ParaProps,
  type ReadEnv,
  readParaProps,
  readRunProps,
  type RunProps,
} from "./properties";

const HEADER_FOOTER = new Set(["header", "footer"]);

/** Deepest basedOn chain followed; Word itself refuses far less, this only stops cycles. */
const MAX_CHAIN = 32;

export interface StyleDef {
  id: string;
  type: string;
  basedOn?: string;
  node: XNode;
}

export interface TableStyleParts {
  tblPr?: XNode;
  tcPr?: XNode;
  trPr?: XNode;
  pPr: ParaProps;
  rPr: RunProps;
}

export class Styles {
  readonly byId = new Map<string, StyleDef>();
  readonly defaultRun: RunProps;
  readonly defaultPara: ParaProps;
  /** docDefaults' w:lang: the text's language (w:val) and the complex scripts' (w:bidi), BCP 47. */
  readonly languages: { latin?: string; complex?: string };
  defaultParagraphStyle?: string;
  defaultCharacterStyle?: string;
  defaultTableStyle?: string;
  private readonly runCache = new Map<string, RunProps>();
  private readonly paraCache = new Map<string, ParaProps>();

  constructor(
    root: XNode | undefined,
    private readonly env: ReadEnv,
  ) {
    const defaults = root?.child("docDefaults");
    // A package without a styles part, or whose styles have no w:rPrDefault, gets Word 2007's
    // defaults in LibreOffice, Calibri 11 pt (measured), kerned (LibreOffice's own default: "AV"
    // kerned there); an rPrDefault without fonts or size keeps Times New Roman 10 pt (toRunStyle).
    const runDefaults = defaults?.child("rPrDefault");
    this.defaultRun = runDefaults
      ? readRunProps(runDefaults.child("rPr"), env)
      : { font: "Calibri", size: 11, sizeComplex: 11, kern: true };
    const lang = defaults?.child("rPrDefault")?.child("rPr")?.child("lang");
    this.languages = { latin: lang?.attr("val"), complex: lang?.attr("bidi") };
    this.defaultPara = readParaProps(defaults?.child("pPrDefault")?.child("pPr"), env);
    if (this.defaultRun.size) env.charUnit = this.defaultRun.size;
    for (const s of root?.all("style") ?? []) {
      const id = s.attr("styleId");
      if (id === undefined || this.byId.has(id)) continue;
      // LibreOffice 7.4 imports styles by name: one without a w:name (or with an empty one) does not
      // exist for it, as a paragraph's, run's or table's style, as a default or as a basedOn parent
      // (measured on minimal documents; docs/rendering.md). Google Docs exports its table styles so.
      if (!s.child("name")?.attr("val")) continue;
      const type = s.attr("type") ?? "paragraph";
      this.byId.set(id, { id, type, basedOn: s.child("basedOn")?.attr("val"), node: s });
      const isDefault = s.attr("default");
      if (isDefault === "1" || isDefault === "true" || isDefault === "on") {
        if (type === "paragraph" && !this.defaultParagraphStyle) this.defaultParagraphStyle = id;
        else if (type === "character" && !this.defaultCharacterStyle) this.defaultCharacterStyle = id;
        else if (type === "table" && !this.defaultTableStyle) this.defaultTableStyle = id;
      }
    }
    // With no paragraph style marked default, LibreOffice takes the one with the id or the name
    // "Normal" as its default paragraph style (measured on minimal documents).
    if (!this.defaultParagraphStyle) {
      const normal = [...this.byId.values()].filter((d) => d.type === "paragraph");
      this.defaultParagraphStyle = (
        normal.find((d) => d.id === "Normal") ?? normal.find((d) => d.node.child("name")?.attr("val") === "Normal")
      )?.id;
    }
  }

  /** The style chain from the root ancestor down to `id` (cycle-safe); empty when unknown. */
  chain(id: string | undefined): StyleDef[] {
    const out: StyleDef[] = [];
    const seen = new Set<string>();
    let cur = id;
    while (cur !== undefined && !seen.has(cur) && out.length < MAX_CHAIN) {
      seen.add(cur);
      const def = this.byId.get(cur);
      if (!def) break;
      out.unshift(def);
      cur = def.basedOn;
    }
    return out;
  }

  /** Run properties a style gives (its chain overlaid, base first), without docDefaults. */
  runProps(id: string | undefined): RunProps {
    if (id === undefined) return {};
    const cached = this.runCache.get(id);
    if (cached) return cached;
    let acc: RunProps = {};
    for (const def of this.chain(id)) acc = overlayRun(acc, readRunProps(def.node.child("rPr"), this.env));
    delete acc.rStyle;
    this.runCache.set(id, acc);
    return acc;
  }

  /** Paragraph properties a style gives (its chain overlaid), without docDefaults. */
  paraProps(id: string | undefined): ParaProps {
    if (id === undefined) return emptyPara();
    const cached = this.paraCache.get(id);
    if (cached) return cached;
    let acc = emptyPara();
    for (const def of this.chain(id)) {
      acc = overlayPara(acc, readParaProps(def.node.child("pPr"), this.env));
      // LibreOffice's Header and Footer styles, which Word's "header" and "footer" become, leave
      // their paragraphs out of line numbering (measured; styles based on them inherit it).
      if (def.type === "paragraph" && HEADER_FOOTER.has(def.node.child("name")?.attr("val")?.toLowerCase() ?? ""))
        acc.suppressLineNumbers = true;
    }
    this.paraCache.set(id, acc);
    return acc;
  }

  /** Whether a paragraph style id exists (unknown ids fall back to the default paragraph style). */
  has(id: string | undefined, type: string): boolean {
    return id !== undefined && this.byId.get(id)?.type === type;
  }

  /** The table style's chain: whole-table parts and conditional parts by type, base first. */
  tableChain(id: string | undefined): StyleDef[] {
    return this.chain(id).filter((d) => d.type === "table");
  }

  /** The conditional formatting (w:tblStylePr) of a table style and its ancestors, merged per type. */
  tableConditionals(id: string | undefined): Map<string, TableStyleParts> {
    const out = new Map<string, TableStyleParts>();
    for (const def of this.tableChain(id)) {
      for (const c of def.node.all("tblStylePr")) {
        const type = c.attr("type");
        if (!type) continue;
        const prev = out.get(type);
        const next: TableStyleParts = {
          tblPr: c.child("tblPr") ?? prev?.tblPr,
          tcPr: c.child("tcPr") ?? prev?.tcPr,
          trPr: c.child("trPr") ?? prev?.trPr,
          pPr: overlayPara(prev?.pPr ?? emptyPara(), readParaProps(c.child("pPr"), this.env)),
          rPr: overlayRun(prev?.rPr ?? {}, readRunProps(c.child("rPr"), this.env)),
        };
        out.set(type, next);
      }
    }
    return out;
  }
}
