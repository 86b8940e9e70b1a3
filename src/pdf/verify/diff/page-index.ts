import { PdfUnparseable } from "../../../errors";
import { PdfDict, PdfName, PdfRef, type PdfValue } from "../../model";
import { PdfBudgetExceeded, type PdfReader } from "../../reader";
import { deepEqual } from "./equal";

/**
 * Page object number → 1-based page index, per revision of one reader, for the difference
 * analysis (was a page signed or appended; page numbers in messages).
 *
 * Consecutive revisions rarely change the page tree's structure (they fill a form, add a
 * signature, rewrite a page's content): an index is carried over to a later revision after
 * checking only the objects the revisions between declare, so a long history does not walk a
 * large page tree once per revision. The structure is the catalog's /Pages, the nodes' /Kids
 * (direct or indirect arrays) and which kids are leaves.
 */

interface PageTree {
  index: Map<number, number>;
  /** Objects whose value shapes the tree: the catalog, the nodes, indirect /Kids arrays. */
  structure: Set<number>;
  /** False when the tree could not be read (then it is walked again for every revision). */
  carried: boolean;
}

const EMPTY: PageTree = { index: new Map(), structure: new Set(), carried: false };
const MAX_DEPTH = 64;

export class PageIndexes {
  private readonly trees = new Map<number, PageTree>();
  private latest = 0;

  constructor(private readonly reader: PdfReader) {}

  of(revision: number): Map<number, number> {
    let tree = this.trees.get(revision);
    if (!tree) {
      const from = this.latest < revision ? this.trees.get(this.latest) : undefined;
      tree = from?.carried && this.unchanged(from, this.latest, revision) ? from : this.walk(revision);
      this.trees.set(revision, tree);
      this.latest = Math.max(this.latest, revision);
    }
    return tree.index;
  }

  /** Whether the revisions after `from` up to `to` leave the tree of `from` as it was. */
  private unchanged(tree: PageTree, from: number, to: number): boolean {
    const reader = this.reader;
    const before = reader.trailerAt(from).get("Root");
    const after = reader.trailerAt(to).get("Root");
    if (!(before instanceof PdfRef && after instanceof PdfRef && before.num === after.num && before.gen === after.gen))
      return false;
    const declared = new Set<number>();
    for (let k = from; k < to; k++) for (const num of reader.revisions[k]!.entries.keys()) declared.add(num);
    reader.spend(Math.ceil(declared.size / 16));
    for (const num of declared) {
      if (tree.structure.has(num)) {
        const a = this.get(num, from);
        const b = this.get(num, to);
        const keys = num === before.num ? ["Pages"] : ["Kids", "Type"];
        const same =
          a instanceof PdfDict && b instanceof PdfDict
            ? keys.every((k) => deepEqual(a.get(k), b.get(k), reader.bytes))
            : deepEqual(a, b, reader.bytes);
        if (Array.isArray(b)) reader.spend(Math.ceil(b.length / 64));
        if (!same) return false;
      } else if (tree.index.has(num)) {
        const leaf = this.get(num, to);
        if (!(leaf instanceof PdfDict) || isNode(leaf, (v) => this.resolve(v, to))) return false;
      }
    }
    return true;
  }

  /** The tree as the reader's page walk sees it (leaves in order), with the objects that shape it. */
  private walk(revision: number): PageTree {
    const reader = this.reader;
    const resolve = (v: PdfValue | undefined) => this.resolve(v, revision);
    try {
      const rootRef = reader.catalogRef(revision);
      const catalog = resolve(rootRef);
      if (!(catalog instanceof PdfDict)) return EMPTY;
      const tree: PageTree = { index: new Map(), structure: new Set([rootRef.num]), carried: true };
      const pagesRef = catalog.get("Pages");
      if (!(pagesRef instanceof PdfRef)) return EMPTY;
      // Depth-first in document order (depth is bounded, so recursion is).
      const node = (ref: PdfRef, dict: PdfDict, depth: number): void => {
        if (tree.structure.has(ref.num) || depth >= MAX_DEPTH)
          throw new PdfUnparseable("The page tree has a cycle or is too deep.");
        tree.structure.add(ref.num);
        const kids = dict.get("Kids");
        if (kids instanceof PdfRef) {
          tree.structure.add(kids.num);
          if (this.get(kids.num, revision) instanceof PdfRef) tree.carried = false;
        }
        const list = resolve(kids);
        for (const kid of Array.isArray(list) ? list : []) {
          reader.spend(1);
          if (!(kid instanceof PdfRef)) continue;
          const d = resolve(kid);
          if (!(d instanceof PdfDict)) continue;
          // A kid reached through a chain of references: its value hangs on objects not tracked here.
          if (this.get(kid.num, revision) instanceof PdfRef) tree.carried = false;
          if (isNode(d, resolve)) node(kid, d, depth + 1);
          else if (!tree.index.has(kid.num)) tree.index.set(kid.num, tree.index.size + 1);
        }
      };
      const root = resolve(pagesRef);
      if (!(root instanceof PdfDict)) return EMPTY;
      node(pagesRef, root, 0);
      return tree;
    } catch (e) {
      if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
      return EMPTY;
    }
  }

  private get(num: number, revision: number): PdfValue | undefined {
    try {
      return this.reader.getObject(num, revision);
    } catch (e) {
      if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
      return undefined;
    }
  }

  private resolve(v: PdfValue | undefined, revision: number): PdfValue | undefined {
    try {
      return this.reader.resolve(v, revision);
    } catch (e) {
      if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
      return undefined;
    }
  }
}

/** A page tree node (not a leaf): /Type /Pages, or an untyped dictionary with a /Kids array (as the reader decides). */
function isNode(d: PdfDict, resolve: (v: PdfValue | undefined) => PdfValue | undefined): boolean {
  const type = d.get("Type");
  if (type instanceof PdfName && type.name === "Pages") return true;
  if (type instanceof PdfName && type.name === "Page") return false;
  return Array.isArray(resolve(d.get("Kids")));
}
