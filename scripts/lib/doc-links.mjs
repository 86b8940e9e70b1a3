/**
 * Relative links in the Markdown documentation (README.md and docs/*.md) that lead nowhere: a file
 * that does not exist, or a `#fragment` that is no heading of the page it points at (anchors as
 * GitHub makes them). Links to other sites are not followed. Used by scripts/lint.mjs.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/** The documentation pages checked, relative to `root`. */
export function docPages(root) {
  const docs = join(root, "docs");
  const pages = existsSync(docs)
    ? readdirSync(docs)
        .filter((n) => n.endsWith(".md"))
        .map((n) => `docs/${n}`)
    : [];
  return ["README.md", ...pages.sort()];
}

/**
 * `text` with fenced code blocks blanked (same line numbers), and inline code spans too unless
 * `keepSpans` (a heading's code is part of its anchor), so code is not read as links or headings.
 */
function withoutCode(text, keepSpans = false) {
  let fence = null;
  return text
    .split("\n")
    .map((line) => {
      const open = /^\s*(```|~~~)/.exec(line);
      if (fence) {
        if (open && open[1] === fence) fence = null;
        return "";
      }
      if (open) {
        fence = open[1];
        return "";
      }
      return keepSpans ? line : line.replace(/`+[^`]*`+/g, (m) => " ".repeat(m.length));
    })
    .join("\n");
}

/** GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading) {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** Every anchor a Markdown page has: its headings' slugs, repeated ones numbered as GitHub does. */
export function anchors(text) {
  const seen = new Map();
  const out = new Set();
  for (const line of withoutCode(text, true).split("\n")) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Links of one page that lead nowhere: `{ line, message }`. `page` is relative to `root`. */
export function brokenLinks(root, page, text) {
  const findings = [];
  const lines = withoutCode(text).split("\n");
  const ownAnchors = anchors(text);
  const anchorCache = new Map();
  const anchorsOf = (path) => {
    if (!anchorCache.has(path)) anchorCache.set(path, anchors(readFileSync(path, "utf8")));
    return anchorCache.get(path);
  };
  lines.forEach((line, i) => {
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/")) continue; // other sites, the service's own paths
      const [file, fragment] = target.split("#", 2);
      if (!file) {
        if (fragment && !ownAnchors.has(fragment.toLowerCase()))
          findings.push({ line: i + 1, message: `${target}: ${page} has no heading #${fragment}` });
        continue;
      }
      const path = join(root, dirname(page), decodeURIComponent(file));
      const shown = relative(root, path);
      if (!existsSync(path)) {
        findings.push({ line: i + 1, message: `${target}: ${shown} does not exist` });
        continue;
      }
      if (fragment && statSync(path).isFile() && path.endsWith(".md") && !anchorsOf(path).has(fragment.toLowerCase())) {
        findings.push({ line: i + 1, message: `${target}: ${shown} has no heading #${fragment}` });
      }
    }
  });
  return findings;
}
