/**
 * Broken embedded glyphs: text that pdftotext reads but a viewer cannot draw (an invalid outline in
 * a subset font). Word measures cannot see it, so the harness asks MuPDF to draw the first pages
 * and counts the distinct (font, glyph) pairs FreeType refuses. LibreOffice's PDFs score 0.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Pages drawn per document: enough to catch a broken subset, cheap on long documents. */
export const GLYPH_CHECK_PAGES = 3;

/** Distinct glyphs MuPDF cannot load on the first pages, or null when mutool is not installed. */
export async function brokenGlyphs(pdf: Uint8Array): Promise<number | null> {
  const dir = mkdtempSync(join(tmpdir(), "signet-glyphs-"));
  try {
    const path = join(dir, "in.pdf");
    writeFileSync(path, pdf);
    const stderr = await new Promise<string | null>((resolve) => {
      execFile(
        "mutool",
        ["draw", "-q", "-o", "/dev/null", "-r", "10", path, `1-${GLYPH_CHECK_PAGES}`],
        { maxBuffer: 64 * 1024 * 1024, timeout: 120_000 },
        (err, _out, errText) => {
          if (err && (err as NodeJS.ErrnoException).code === "ENOENT") resolve(null);
          else resolve(String(errText));
        },
      );
    });
    if (stderr === null) return null;
    const broken = new Set<string>();
    for (const m of stderr.matchAll(/FT_Load_Glyph\(([^,]+),(\d+),/g)) broken.add(`${m[1]}#${m[2]}`);
    return broken.size;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
