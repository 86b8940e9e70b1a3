import { describe, expect, it } from "vitest";
import { markdownToModel } from "./markdown";
import type { Paragraph } from "./model";

const paragraphs = (md: string) => markdownToModel(md).blocks.filter((b): b is Paragraph => b.kind === "paragraph");
const text = (p: Paragraph) =>
  p.inlines
    .map((i) =>
      i.kind === "text"
        ? i.text
        : i.kind === "link"
          ? i.children.map((c) => (c.kind === "text" ? c.text : "")).join("")
          : "",
    )
    .join("");

describe("Markdown to the document model", () => {
  it("takes a front-matter title as the Title paragraph and the document title", () => {
    const model = markdownToModel('---\ntitle: "Master Agreement"\nversion: 2\n---\n\n# One');
    expect(model.title).toBe("Master Agreement");
    expect(model.blocks.slice(0, 2).map((b) => (b as Paragraph).style)).toEqual(["Title", "Heading1"]);
  });

  it("numbers each list on its own, keeps nesting levels, and marks continuation paragraphs", () => {
    const ps = paragraphs("3. a\n4. b\n\n   more of b\n   - inner\n\n- other list");
    expect(ps.map((p) => [text(p), p.list?.ordered, p.list?.level, p.list?.start, p.list?.continuation])).toEqual([
      ["a", true, 0, 3, false],
      ["b", true, 0, 3, false],
      ["more of b", true, 0, 3, true],
      ["inner", false, 1, 1, false],
      ["other list", false, 0, 1, false],
    ]);
    expect(new Set(ps.map((p) => p.list?.listId)).size).toBe(3);
  });

  it("draws GitHub task markers as ballot boxes, only at the start of an item", () => {
    expect(paragraphs("- [ ] todo\n- [x] done\n- not [ ] a task").map(text)).toEqual([
      "\u2610 todo",
      "\u2612 done",
      "not [ ] a task",
    ]);
  });

  it("keeps footnotes, strikethrough, code and autolinks", () => {
    const model = markdownToModel("Text~~gone~~ `x` www.example.com[^n]\n\n[^n]: Note.");
    const p = model.blocks[0] as Paragraph;
    expect(p.inlines.some((i) => i.kind === "text" && i.marks.strike)).toBe(true);
    expect(p.inlines.some((i) => i.kind === "text" && i.marks.code)).toBe(true);
    expect(p.inlines.some((i) => i.kind === "link" && i.href === "http://www.example.com")).toBe(true);
    expect(p.inlines.at(-1)).toEqual({ kind: "footnote", id: "0" });
    expect(model.footnotes).toHaveLength(1);
  });

  it("splits code blocks into lines and reads HTML blocks with the HTML reader", () => {
    const ps = paragraphs('```\na\n\tb\n```\n\n<p align="center"><b>centred</b></p>');
    expect(ps.slice(0, 2).map((p) => p.style)).toEqual(["SourceCode", "SourceCode"]);
    expect(ps[1]!.inlines[0]).toEqual({ kind: "tab" });
    expect(ps[2]!.props?.align).toBe("center");
  });
});
