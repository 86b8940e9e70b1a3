/**
 * The certificate page's fonts, bundled with the Worker as Data modules
 * (wrangler rule: `[[rules]] type = "Data" globs = ["**\/*.ttf"]`).
 *
 * Noto Sans Regular and Bold and Noto Sans Mono Regular (SIL Open Font
 * License 1.1, see fonts/OFL.txt), reduced to Latin, Greek, Cyrillic and common
 * symbols without hinting or layout tables (see fonts/README.md).
 */
import regular from "./fonts/NotoSans-Regular.ttf";
import bold from "./fonts/NotoSans-Bold.ttf";
import mono from "./fonts/NotoSansMono-Regular.ttf";
import type { CertificateFonts } from "./types";

let cached: CertificateFonts | undefined;

function bytes(name: string, data: unknown): Uint8Array<ArrayBuffer> {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (data instanceof Uint8Array && data.buffer instanceof ArrayBuffer)
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  // Without the Data rule a bundler hands over something else (e.g. an asset URL).
  throw new TypeError(`font ${name} was not bundled as data (wrangler [[rules]] type = "Data" for **/*.ttf?)`);
}

export function loadCertificateFonts(): CertificateFonts {
  cached ??= {
    regular: bytes("NotoSans-Regular.ttf", regular),
    bold: bytes("NotoSans-Bold.ttf", bold),
    mono: bytes("NotoSansMono-Regular.ttf", mono),
  };
  return cached;
}
