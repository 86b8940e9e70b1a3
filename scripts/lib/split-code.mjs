/** Source text split into code and comments, for the checks of scripts/lint.mjs and scripts/lib/import-cycles.mjs. */

/**
 * Splits source into code (comments and string contents replaced by spaces, line breaks
 * kept) and comments (everything else blanked). Template literals are blanked whole,
 * `${}` included: good enough for these rules. Regex literals are not recognised; a `'`
 * or `"` inside one may blank the rest of its line only (strings end at a line break).
 */
export function splitCode(text) {
  const code = [];
  const comments = [];
  const blank = (ch) => (ch === "\n" ? "\n" : " ");
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    const next = text[i + 1];
    if (ch === "/" && next === "/") {
      while (i < text.length && text[i] !== "\n") {
        comments.push(text[i]);
        code.push(" ");
        i++;
      }
    } else if (ch === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : end + 2;
      for (; i < stop; i++) {
        comments.push(text[i]);
        code.push(blank(text[i]));
      }
    } else if (ch === '"' || ch === "'" || ch === "`") {
      code.push(ch);
      comments.push(" ");
      i++;
      while (i < text.length && text[i] !== ch && (ch === "`" || text[i] !== "\n")) {
        if (text[i] === "\\" && i + 1 < text.length) {
          code.push(" ", blank(text[i + 1]));
          comments.push(" ", blank(text[i + 1]));
          i += 2;
          continue;
        }
        code.push(blank(text[i]));
        comments.push(blank(text[i]));
        i++;
      }
      if (i < text.length) {
        code.push(text[i] === "\n" ? "\n" : ch);
        comments.push(blank(text[i]));
        i++;
      }
    } else {
      code.push(ch);
      comments.push(blank(ch));
      i++;
    }
  }
  return { code: code.join(""), comments: comments.join("") };
}
