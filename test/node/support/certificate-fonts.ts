import { readFileSync } from "node:fs";
import type { CertificateFonts } from "../../../src/evidence/types";

/** The certificate page's bundled fonts, read from src/evidence/fonts (what the worker imports as Data modules). */
export function certificateFontsFromFiles(): CertificateFonts {
  const dir = new URL("../../../src/evidence/fonts/", import.meta.url);
  const read = (name: string) => new Uint8Array(readFileSync(new URL(name, dir)));
  return {
    regular: read("NotoSans-Regular.ttf"),
    bold: read("NotoSans-Bold.ttf"),
    mono: read("NotoSansMono-Regular.ttf"),
  };
}
