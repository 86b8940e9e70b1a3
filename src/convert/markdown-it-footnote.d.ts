// markdown-it-footnote ships no types; markdown-it 15 ships its own.
declare module "markdown-it-footnote" {
  import type { MarkdownIt } from "markdown-it";
  const footnotePlugin: (md: MarkdownIt) => void;
  export default footnotePlugin;
}
