/**
 * The HarfBuzz glue's behaviour, run in workerd (src/render/shaping/harfbuzz.test.ts: the compiled
 * module imported as the worker bundles it) and in Node (test/node/render-shaping.test.ts: the same
 * file compiled from disk). Each case checks what shaping must do and our hand-written code did not:
 * ligatures, Arabic joining forms, Hebrew points placed by GPOS mark attachment, Devanagari
 * reordering, pair kerning, context across a run boundary.
 */
import { describe, expect, it } from "vitest";
import type { GlyphRun, Shaper, ShapingFace } from "../../src/render/shaping/harfbuzz";

/** The test fonts, by role (Carlito, DejaVu Sans, Noto Sans Hebrew, Noto Sans Devanagari). */
export interface ShapingFonts {
  carlito: Uint8Array;
  dejaVuSans: Uint8Array;
  notoSansHebrew: Uint8Array;
  notoSansDevanagari: Uint8Array;
}

/** The one glyph `face` draws `text` with alone (its cmap glyph, for a single character). */
function soleGlyph(face: ShapingFace, text: string): number {
  const run = face.shape(text);
  expect(run.glyphs.length).toBe(1);
  return run.glyphs[0]!;
}

const list = (a: ArrayLike<number>) => Array.from(a);

export function describeShaping(
  where: string,
  shaper: () => Promise<Shaper>,
  fonts: () => Promise<ShapingFonts>,
): void {
  describe(`HarfBuzz shaping (${where})`, () => {
    const load = async (pick: (f: ShapingFonts) => Uint8Array) => (await shaper()).face(pick(await fonts()));

    it('Carlito shapes "office" with the ffi ligature: one glyph for three letters, its cluster spanning them', async () => {
      const carlito = await load((f) => f.carlito);
      const run = carlito.shape("office");
      expect(run.glyphs.length).toBe(4);
      expect(run.glyphs[1]).toBe(soleGlyph(carlito, "\uFB03")); // the face's own ﬃ glyph
      expect(list(run.clusters)).toEqual([0, 1, 4, 5]);
      // With liga off, six glyphs, one per letter.
      const plain = carlito.shape("office", { features: [{ tag: "liga", value: 0 }] });
      expect(list(plain.glyphs)).toEqual([..."office"].map((c) => soleGlyph(carlito, c)));
      expect(run.unitsPerEm).toBe(2048);
      carlito.destroy();
    });

    it("kerns the pairs AV and To through GPOS, and not when kern is off", async () => {
      const carlito = await load((f) => f.carlito);
      const kerned = carlito.shape("AVTo");
      const unkerned = carlito.shape("AVTo", { features: [{ tag: "kern", value: 0 }] });
      expect(list(kerned.glyphs)).toEqual(list(unkerned.glyphs));
      expect(list(unkerned.xAdvances)).toEqual([..."AVTo"].map((c) => carlito.shape(c).xAdvances[0]));
      expect(kerned.xAdvances[0]).toBeLessThan(unkerned.xAdvances[0]!); // A before V
      expect(kerned.xAdvances[2]).toBeLessThan(unkerned.xAdvances[2]!); // T before o
      expect(kerned.xAdvances[3]).toBe(unkerned.xAdvances[3]); // the last letter keeps its advance
      carlito.destroy();
    });

    it("joins Arabic letters into their initial, medial and final forms, right to left in visual order", async () => {
      const dejaVu = await load((f) => f.dejaVuSans);
      const run = dejaVu.shape("بيت"); // beh, yeh, teh
      // Visual order is left to right: teh (final) first, beh (initial) last.
      expect(list(run.glyphs)).toEqual([
        soleGlyph(dejaVu, "\uFE96"),
        soleGlyph(dejaVu, "\uFEF4"),
        soleGlyph(dejaVu, "\uFE91"),
      ]);
      expect(list(run.clusters)).toEqual([2, 1, 0]);
      // Alone, yeh takes its isolated form; shaped as the middle of the word it stays medial.
      expect(soleGlyph(dejaVu, "ي")).not.toBe(soleGlyph(dejaVu, "\uFEF4"));
      const middle = dejaVu.shape("بيت", { start: 1, end: 2 });
      expect(list(middle.glyphs)).toEqual([soleGlyph(dejaVu, "\uFEF4")]);
      expect(list(middle.clusters)).toEqual([1]);
      dejaVu.destroy();
    });

    it("places Hebrew points by GPOS mark attachment: no advance of their own, moved over their letter", async () => {
      const hebrew = await load((f) => f.notoSansHebrew);
      const run = hebrew.shape("בָ"); // bet + qamats
      const bet = soleGlyph(hebrew, "ב");
      expect(list(run.clusters)).toEqual([1, 0]);
      expect(run.glyphs[1]).toBe(bet);
      expect(run.xAdvances[0]).toBe(0); // the mark
      const unpositioned = hebrew.shape("בָ", { features: [{ tag: "mark", value: 0 }] });
      expect(unpositioned.xOffsets[0]).toBe(0);
      // Attached, the qamats sits under the middle part of the bet (pen after the mark = bet's left edge).
      const betAdvance = run.xAdvances[1]!;
      expect(run.xOffsets[0]).toBeGreaterThan(betAdvance * 0.1);
      expect(run.xOffsets[0]).toBeLessThan(betAdvance * 0.9);
      hebrew.destroy();
    });

    it("reorders the Devanagari vowel sign i before its consonant, one cluster for both", async () => {
      const deva = await load((f) => f.notoSansDevanagari);
      const ka = soleGlyph(deva, "क");
      const run = deva.shape("कि"); // ka + sign i (typed after, drawn before)
      expect(run.glyphs.length).toBe(2);
      expect(run.glyphs[1]).toBe(ka);
      expect(run.glyphs[0]).not.toBe(ka);
      expect(list(run.clusters)).toEqual([0, 0]);
      // The conjunct ksha (ka + virama + ssa) is one glyph.
      expect(deva.shape("क्ष").glyphs.length).toBe(1);
      const hindi = deva.shape("हिन्दी", { script: "Deva", direction: "ltr", language: "hi" });
      expect(list(hindi.clusters)).toEqual([0, 0, 2, 4, 5]);
      deva.destroy();
    });

    it("refuses a face used after destroy() and shapes every character of a file it cannot read to glyph 0", async () => {
      const hb = await shaper();
      const carlito = await load((f) => f.carlito);
      carlito.destroy();
      expect(() => carlito.shape("a")).toThrow(/after destroy/);
      const junk = hb.face(new Uint8Array(4096).fill(0x41));
      const run: GlyphRun = junk.shape("ab");
      expect(list(run.glyphs)).toEqual([0, 0]);
      junk.destroy();
    });
  });
}
