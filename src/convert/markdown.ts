/**
 * Markdown → document model. CommonMark with GitHub's extensions (tables, strikethrough, extended
 * autolinks, task lists, footnotes), parsed by markdown-it (chosen by measurement: all 652
 * CommonMark 0.31.2 spec examples, 27× faster than micromark's mdast; see docs/convert.md). Raw
 * HTML blocks go through the HTML reader, so a README's `<p align="center"><img ...></p>` comes out
 * as it shows on GitHub. A YAML front matter `title:` becomes the Title paragraph.
 */
import markdownIt, { type MarkdownIt, type Token } from "markdown-it";
import footnotePlugin from "markdown-it-footnote";
import { LIMITS } from "../limits";
import { ConvertLimitExceeded } from "./errors";
import { htmlFragmentToBlocks, type ListIds } from "./html";
import type {
  Block,
  DocumentModel,
  Footnote,
  Inline,
  Marks,
  Paragraph,
  ParagraphStyle,
  TableCell,
  TableRow,
  Alignment,
} from "./model";

let parser: MarkdownIt | undefined;
function markdownParser(): MarkdownIt {
  if (!parser) {
    parser = markdownIt({ html: true, linkify: true, typographer: false }).use(footnotePlugin);
    // GFM's extended autolinks: www. names besides URLs and e-mail addresses (bare domains are not
    // links on GitHub; see BARE_DOMAIN below).
    parser.linkify.set({ fuzzyLink: true });
  }
  return parser;
}

const HEADINGS: ParagraphStyle[] = ["Heading1", "Heading2", "Heading3", "Heading4", "Heading5", "Heading6"];

export function markdownToModel(source: string): DocumentModel {
  const { title, body } = splitFrontMatter(source.replace(/^\uFEFF/, ""));
  const tokens = markdownParser().parse(body, {});
  if (tokens.length > LIMITS.convert.maxMarkdownTokens) {
    throw new ConvertLimitExceeded(`The Markdown has more than ${LIMITS.convert.maxMarkdownTokens} elements.`);
  }
  const reader = new TokenReader(tokens);
  const blocks = reader.blocks(0, tokens.length, { quoteDepth: 0, lists: [] });
  if (title) blocks.unshift({ kind: "paragraph", style: "Title", inlines: [{ kind: "text", text: title, marks: {} }] });
  return { title, blocks, footnotes: reader.footnotes };
}

/** `---\ntitle: ...\n---` at the very start (YAML front matter, as GitHub and pandoc read it). */
function splitFrontMatter(source: string): { title?: string; body: string } {
  const m = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(source);
  if (!m) return { body: source };
  const line = /^title:[ \t]*(.+)$/m.exec(m[1]!);
  const title = line ? line[1]!.trim().replace(/^(["'])(.*)\1$/, "$2") : undefined;
  return { title: title || undefined, body: source.slice(m[0].length) };
}

interface Context {
  quoteDepth: number;
  /** Open lists, innermost last. */
  lists: { listId: number; ordered: boolean; start: number; itemParagraphs: number }[];
}

class TokenReader {
  readonly footnotes: Footnote[] = [];
  private readonly listIds: ListIds = { next: 1 };
  private paragraphs = 0;

  /** Counts paragraphs as they are made (a code block of a million lines stops at the limit). */
  private count(n = 1): void {
    this.paragraphs += n;
    if (this.paragraphs > LIMITS.convert.maxBlocks)
      throw new ConvertLimitExceeded(`The document has more than ${LIMITS.convert.maxBlocks} paragraphs.`);
  }

  constructor(private readonly tokens: Token[]) {}

  /** The index of the token closing the one opened at `i`. */
  private closing(i: number): number {
    let depth = 0;
    for (let j = i; j < this.tokens.length; j++) {
      depth += this.tokens[j]!.nesting;
      if (depth === 0) return j;
    }
    return this.tokens.length - 1;
  }

  blocks(from: number, to: number, ctx: Context): Block[] {
    const out: Block[] = [];
    for (let i = from; i < to; i++) {
      const t = this.tokens[i]!;
      switch (t.type) {
        case "heading_open": {
          const inline = this.tokens[i + 1]!;
          out.push(
            this.paragraph(HEADINGS[Number(t.tag.slice(1)) - 1] ?? "Heading6", inlines(inline.children ?? []), ctx),
          );
          i = this.closing(i);
          break;
        }
        case "paragraph_open": {
          const inline = this.tokens[i + 1]!;
          out.push(
            this.paragraph(
              ctx.quoteDepth ? "Quote" : "Normal",
              inlines(inline.children ?? [], {}, ctx.lists.length > 0 && ctx.lists.at(-1)!.itemParagraphs === 0),
              ctx,
            ),
          );
          i = this.closing(i);
          break;
        }
        case "blockquote_open": {
          const end = this.closing(i);
          out.push(...this.blocks(i + 1, end, { ...ctx, quoteDepth: ctx.quoteDepth + 1 }));
          i = end;
          break;
        }
        case "bullet_list_open":
        case "ordered_list_open": {
          const end = this.closing(i);
          const list = {
            listId: this.listIds.next++,
            ordered: t.type === "ordered_list_open",
            start: Number(t.attrGet("start") ?? 1) || 1,
            itemParagraphs: 0,
          };
          for (let j = i + 1; j < end; j++) {
            if (this.tokens[j]!.type !== "list_item_open") continue;
            const itemEnd = this.closing(j);
            const item = { ...list, itemParagraphs: 0 };
            out.push(...this.blocks(j + 1, itemEnd, { ...ctx, lists: [...ctx.lists, item] }));
            j = itemEnd;
          }
          i = end;
          break;
        }
        case "fence":
        case "code_block": {
          let lines = 1;
          for (let i = 0; i < t.content.length; i++) if (t.content.charCodeAt(i) === 10) lines++;
          this.count(lines);
          out.push(...codeBlock(t.content, ctx, this.listRefOf(ctx)));
          break;
        }
        case "hr":
          out.push({ kind: "paragraph", style: "Normal", inlines: [], props: { bottomRule: true, spaceAfterPt: 12 } });
          break;
        case "html_block":
          out.push(...htmlFragmentToBlocks(t.content, this.listIds));
          break;
        case "table_open": {
          const end = this.closing(i);
          out.push(this.table(i + 1, end));
          i = end;
          break;
        }
        case "footnote_block_open": {
          const end = this.closing(i);
          for (let j = i + 1; j < end; j++) {
            const f = this.tokens[j]!;
            if (f.type !== "footnote_open") continue;
            const fEnd = this.closing(j);
            this.footnotes.push({
              id: String(f.meta?.id),
              blocks: this.blocks(j + 1, fEnd, { quoteDepth: 0, lists: [] }),
            });
            j = fEnd;
          }
          i = end;
          break;
        }
        default:
          break;
      }
    }
    return out;
  }

  /** The list label of the first paragraph of an item; later paragraphs continue it. */
  private listRefOf(ctx: Context): Paragraph["list"] {
    const list = ctx.lists.at(-1);
    if (!list) return undefined;
    const ref = {
      listId: list.listId,
      ordered: list.ordered,
      level: ctx.lists.length - 1,
      start: list.start,
      continuation: list.itemParagraphs > 0,
    };
    list.itemParagraphs++;
    return ref;
  }

  private paragraph(style: ParagraphStyle, content: Inline[], ctx: Context): Paragraph {
    this.count();
    const p: Paragraph = { kind: "paragraph", style, inlines: content };
    const list = this.listRefOf(ctx);
    if (list) {
      p.list = list;
      if (style === "Normal") p.style = "ListParagraph";
    }
    if (ctx.quoteDepth) p.quoteDepth = ctx.quoteDepth;
    return p;
  }

  private table(from: number, to: number): Block {
    const rows: TableRow[] = [];
    let row: TableRow | null = null;
    let header = false;
    for (let i = from; i < to; i++) {
      const t = this.tokens[i]!;
      if (t.type === "thead_open") header = true;
      else if (t.type === "tbody_open") header = false;
      else if (t.type === "tr_open") rows.push((row = { cells: [], header }));
      else if ((t.type === "th_open" || t.type === "td_open") && row) {
        const style = t.attrGet("style") ?? "";
        const align = /text-align:\s*(left|center|right)/.exec(String(style))?.[1] as Alignment | undefined;
        const inline = this.tokens[i + 1]!;
        const cell: TableCell = {
          header,
          align,
          blocks: [
            {
              kind: "paragraph",
              style: "Normal",
              inlines: inlines(inline.type === "inline" ? (inline.children ?? []) : [], header ? { bold: true } : {}),
              props: { spaceAfterPt: 0, align },
            },
          ],
        };
        row.cells.push(cell);
        i = this.closing(i);
      }
    }
    return { kind: "table", rows };
  }
}

/** A fenced or indented code block: one SourceCode paragraph per line, so page breaks fall between lines. */
function codeBlock(content: string, ctx: Context, list: Paragraph["list"]): Paragraph[] {
  const lines = content.replace(/\n$/, "").split("\n");
  return lines.map((line, k) => {
    const p: Paragraph = { kind: "paragraph", style: "SourceCode", inlines: line ? textWithTabs(line, {}) : [] };
    if (list) p.list = { ...list, continuation: true };
    if (ctx.quoteDepth) p.quoteDepth = ctx.quoteDepth;
    if (k < lines.length - 1) p.props = { spaceAfterPt: 0 };
    return p;
  });
}

function textWithTabs(text: string, marks: Marks): Inline[] {
  const out: Inline[] = [];
  text.split("\t").forEach((part, k) => {
    if (k) out.push({ kind: "tab" });
    if (part) out.push({ kind: "text", text: part, marks });
  });
  return out;
}

const TASK = /^\[([ xX])\][ \t]/;

/** Linkified text that GFM would not link: no scheme, not www., not an e-mail address. */
const BARE_DOMAIN = (text: string) => !/^(www\.|[a-z][a-z0-9+.-]*:|[^@\s]+@)/i.test(text);

/**
 * Inline tokens → inlines. `taskItem`: the first text of a list item's first paragraph may be a
 * GitHub task marker (`[ ] ` / `[x] `), drawn as a ballot box.
 */
export function inlines(children: Token[], base: Marks = {}, taskItem = false): Inline[] {
  const out: Inline[] = [];
  const stack: { out: Inline[]; marks: Marks; href?: string }[] = [{ out, marks: base }];
  const top = () => stack[stack.length - 1]!;
  children.forEach((t, k) => {
    const { marks } = top();
    const push = (i: Inline) => top().out.push(i);
    switch (t.type) {
      case "text": {
        let text = t.content;
        if (taskItem && k === 0 && TASK.test(text))
          text = `${/x/i.test(text[1]!) ? "\u2612" : "\u2610"} ${text.slice(4)}`;
        if (text) push({ kind: "text", text, marks });
        break;
      }
      case "code_inline":
        push({ kind: "text", text: t.content, marks: { ...marks, code: true } });
        break;
      case "softbreak":
        push({ kind: "text", text: " ", marks });
        break;
      case "hardbreak":
        push({ kind: "break" });
        break;
      case "strong_open":
        stack.push({ out: top().out, marks: { ...marks, bold: true } });
        break;
      case "em_open":
        stack.push({ out: top().out, marks: { ...marks, italic: true } });
        break;
      case "s_open":
        stack.push({ out: top().out, marks: { ...marks, strike: true } });
        break;
      case "link_open": {
        // A linkified bare domain ("example.com") is not a link in GFM: keep it as text.
        if (t.markup === "linkify" && BARE_DOMAIN(children[k + 1]?.content ?? "")) {
          stack.push({ out: top().out, marks });
          break;
        }
        const link: Inline & { kind: "link" } = { kind: "link", href: String(t.attrGet("href") ?? ""), children: [] };
        push(link);
        stack.push({ out: link.children, marks, href: link.href });
        break;
      }
      case "strong_close":
      case "em_close":
      case "s_close":
      case "link_close":
        if (stack.length > 1) stack.pop();
        break;
      case "image":
        push({ kind: "image", src: String(t.attrGet("src") ?? ""), alt: t.content });
        break;
      case "footnote_ref":
        push({ kind: "footnote", id: String(t.meta?.id) });
        break;
      case "html_inline":
        htmlInline(t.content, stack, marks);
        break;
      default:
        break;
    }
  });
  return out;
}

/** The inline HTML a Markdown author writes: line breaks and a few formatting tags; other tags are dropped, their text kept. */
function htmlInline(tag: string, stack: { out: Inline[]; marks: Marks }[], marks: Marks): void {
  const m = /^<(\/?)([a-zA-Z][a-zA-Z0-9]*)/.exec(tag);
  if (!m) return;
  const closing = m[1] === "/";
  const name = m[2]!.toLowerCase();
  if (name === "br" && !closing) {
    stack[stack.length - 1]!.out.push({ kind: "break" });
    return;
  }
  const mark: Marks | null =
    name === "b" || name === "strong"
      ? { bold: true }
      : name === "i" || name === "em"
        ? { italic: true }
        : name === "u" || name === "ins"
          ? { underline: true }
          : name === "s" || name === "del" || name === "strike"
            ? { strike: true }
            : name === "sup"
              ? { superscript: true }
              : name === "sub"
                ? { subscript: true }
                : name === "code" || name === "kbd" || name === "samp"
                  ? { code: true }
                  : null;
  if (!mark) return;
  if (closing) {
    if (stack.length > 1) stack.pop();
  } else if (!tag.endsWith("/>")) {
    stack.push({ out: stack[stack.length - 1]!.out, marks: { ...marks, ...mark } });
  }
}
