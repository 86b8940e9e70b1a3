/** ToUnicode CMaps (ISO 32000-2 §9.10.3) for fonts whose text is written as 2-byte glyph ids. */

const hex4 = (n: number) => n.toString(16).padStart(4, "0");

/** The ToUnicode CMap: each glyph id to the UTF-16BE text it was drawn for. */
export function toUnicodeCMap(entries: readonly (readonly [number, string])[]): string {
  const utf16 = (s: string) => {
    let out = "";
    for (let i = 0; i < s.length; i++) out += hex4(s.charCodeAt(i));
    return out;
  };
  const lines = [
    "/CIDInit /ProcSet findresource begin",
    "12 dict begin",
    "begincmap",
    "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
    "/CMapName /Adobe-Identity-UCS def",
    "/CMapType 2 def",
    "1 begincodespacerange",
    "<0000> <ffff>",
    "endcodespacerange",
  ];
  for (let i = 0; i < entries.length; i += 100) {
    const chunk = entries.slice(i, i + 100);
    lines.push(`${chunk.length} beginbfchar`);
    for (const [gid, text] of chunk) lines.push(`<${hex4(gid)}> <${utf16(text)}>`);
    lines.push("endbfchar");
  }
  lines.push("endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end");
  return lines.join("\n");
}
