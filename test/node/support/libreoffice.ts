/**
 * LibreOffice and poppler for Node-side tests, the fidelity harness and the render benchmark:
 * DOCX → PDF with `soffice --headless` using exactly our substitute fonts (a generated fontconfig
 * file adding node_modules/@expo-google-fonts/* with explicit Office-name aliases), and word boxes,
 * text, page counts and font lists read back with poppler.
 */
import { spawn, execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const REPO = new URL("../../../", import.meta.url).pathname;
const FONT_PACKAGES = join(REPO, "node_modules/@expo-google-fonts");
/** The @expo-google-fonts packages the renderer ships a file of (src/render/fonts/files.json). */
const SHIPPED_FONT_PACKAGES = new Set(
  Object.values(
    JSON.parse(readFileSync(join(REPO, "src/render/fonts/files.json"), "utf8")) as Record<string, string>,
  ).flatMap((path) => /^node_modules\/@expo-google-fonts\/([^/]+)\//.exec(path)?.[1] ?? []),
);
const OTHER_FONT_DIRS = [join(REPO, "node_modules/dejavu-fonts-ttf/ttf"), join(REPO, "src/render/fonts/vendor")];

/** A conversion taking longer than this is killed (LibreOffice may hang on hostile files). */
export const LIBREOFFICE_TIMEOUT_MS = 120_000;

/**
 * Office family → the substitute both Signet and LibreOffice must use. Metric-compatible:
 * same advance widths, so line breaks agree.
 */
export const FONT_ALIASES: Record<string, string> = {
  Calibri: "Carlito",
  "Calibri Light": "Carlito",
  Cambria: "Caladea",
  Arial: "Arimo",
  Helvetica: "Arimo",
  "Liberation Sans": "Arimo",
  "Times New Roman": "Tinos",
  Times: "Tinos",
  "Liberation Serif": "Tinos",
  "Courier New": "Cousine",
  Courier: "Cousine",
  "Liberation Mono": "Cousine",
};

const xmlEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The fontconfig file text: our font directories and aliases first, then the system configuration. */
export function fontsConfText(cacheDir: string): string {
  // Every font the renderer ships, so LibreOffice draws with the same files whatever the machine
  // has installed (Droid Sans Fallback and DejaVu Sans are also Debian's, but not everywhere); font
  // packages installed only for tests (Noto Sans Devanagari for the shaping tests) stay hidden.
  const dirs = [
    ...(existsSync(FONT_PACKAGES)
      ? readdirSync(FONT_PACKAGES)
          .filter((d) => SHIPPED_FONT_PACKAGES.has(d))
          .map((d) => join(FONT_PACKAGES, d))
      : []),
    ...OTHER_FONT_DIRS.filter((d) => existsSync(d)),
  ];
  // binding="strong" + mode="prepend_first": the substitute wins over fontconfig's own metric
  // aliases (which would pick Liberation for Arial) and over any later rule.
  const aliases = Object.entries(FONT_ALIASES)
    .map(
      ([from, to]) =>
        `  <match target="pattern"><test qual="any" name="family"><string>${xmlEscape(from)}</string></test>` +
        `<edit name="family" mode="prepend_first" binding="strong"><string>${xmlEscape(to)}</string></edit></match>`,
    )
    .join("\n");
  return (
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n<fontconfig>\n` +
    dirs.map((d) => `  <dir>${xmlEscape(d)}</dir>`).join("\n") +
    `\n  <cachedir>${xmlEscape(cacheDir)}</cachedir>\n${aliases}\n` +
    // LibreOffice's own replacement table maps Arial to Liberation Sans by name before asking
    // fontconfig; hiding the system Liberation fonts makes it take our aliases (Arimo, Tinos, Cousine).
    `  <selectfont><rejectfont><glob>/usr/share/fonts/truetype/liberation*/*</glob></rejectfont></selectfont>\n` +
    `  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n</fontconfig>\n`
  );
}

let fontsConfPath: string | undefined;

/** Path of the generated fonts.conf (written once per process, in a directory keyed by its content). */
export function fontsConf(): string {
  if (fontsConfPath) return fontsConfPath;
  const probe = fontsConfText("CACHE");
  const dir = join(tmpdir(), `signet-fontconfig-${createHash("sha256").update(probe).digest("hex").slice(0, 12)}`);
  mkdirSync(join(dir, "cache"), { recursive: true });
  const path = join(dir, "fonts.conf");
  writeFileSync(path, fontsConfText(join(dir, "cache")));
  fontsConfPath = path;
  return path;
}

/** Environment for LibreOffice and fontconfig tools so they see our fonts and aliases. */
export function fontEnv(): NodeJS.ProcessEnv {
  return { ...process.env, FONTCONFIG_FILE: fontsConf() };
}

let available: Promise<boolean> | undefined;

/**
 * Whether soffice and poppler are installed. Tests skip when they are not, except in CI
 * (process.env.CI set), where a missing tool is an error.
 */
export function libreOfficeAvailable(): Promise<boolean> {
  available ??= (async () => {
    const missing: string[] = [];
    for (const [cmd, args] of [
      ["soffice", ["--version"]],
      ["pdftotext", ["-v"]],
      ["pdfinfo", ["-v"]],
    ] as const) {
      try {
        await run(cmd, [...args], { timeout: 60_000 });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") missing.push(cmd);
      }
    }
    if (missing.length === 0) return true;
    const msg = `${missing.join(", ")} not installed (apt-get install -y libreoffice-writer-nogui poppler-utils)`;
    if (process.env.CI) throw new Error(`CI must have LibreOffice and poppler: ${msg}`);
    console.warn(`SKIPPED LibreOffice comparisons: ${msg}`);
    return false;
  })();
  return available;
}

// One profile per concurrent slot: parallel conversions never share a profile (LibreOffice locks
// it), sequential ones reuse it (creating a profile costs seconds). Removed at exit.
const freeProfiles: string[] = [];
const allProfiles: string[] = [];
let profileCounter = 0;
process.once("exit", () => {
  for (const dir of allProfiles) rmSync(dir, { recursive: true, force: true });
});

function takeProfile(fresh: boolean): string {
  if (!fresh && freeProfiles.length) return freeProfiles.pop()!;
  const dir = join(tmpdir(), `lo-profile-${process.pid}-${profileCounter++}`);
  allProfiles.push(dir);
  return dir;
}

export interface ConvertOptions {
  /** Start from a new profile (a fully cold start, as a first `libreoffice-convert` call). */
  freshProfile?: boolean;
  timeoutMs?: number;
}

/** DOCX bytes → PDF bytes with `soffice --headless --convert-to pdf`, our fonts, a private profile. */
export async function convertWithLibreOffice(docx: Uint8Array, opts: ConvertOptions = {}): Promise<Uint8Array> {
  const work = mkdtempSync(join(tmpdir(), "signet-lo-"));
  const profile = takeProfile(opts.freshProfile ?? false);
  let profileUsable = false;
  try {
    const input = join(work, "document.docx");
    writeFileSync(input, docx);
    const args = [
      `-env:UserInstallation=file://${profile}`,
      "--headless",
      "--norestore",
      "--convert-to",
      "pdf",
      "--outdir",
      work,
      input,
    ];
    const { code, output } = await spawnWithTimeout("soffice", args, opts.timeoutMs ?? LIBREOFFICE_TIMEOUT_MS);
    const pdf = join(work, "document.pdf");
    if (!existsSync(pdf)) throw new Error(`LibreOffice produced no PDF (exit ${code}): ${output.trim().slice(0, 500)}`);
    profileUsable = code === 0;
    return new Uint8Array(readFileSync(pdf));
  } finally {
    // A killed or failed run may leave a lock or a half-written profile: never reuse it.
    if (profileUsable) freeProfiles.push(profile);
    else rmSync(profile, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
}

function spawnWithTimeout(
  cmd: string,
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // Own process group: soffice forks soffice.bin, and a timeout must kill both.
    const child = spawn(cmd, args, { env: fontEnv(), detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        /* already gone */
      }
      reject(new Error(`LibreOffice timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Poppler

async function withPdfFile<T>(pdf: Uint8Array, f: (path: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "signet-pdf-"));
  try {
    const path = join(dir, "in.pdf");
    writeFileSync(path, pdf);
    return await f(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const BIG = { maxBuffer: 256 * 1024 * 1024, timeout: 120_000 };

export interface Word {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

export interface PageWords {
  /** Page size in pt. */
  width: number;
  height: number;
  /** Words in poppler's reading order; y grows downwards from the top of the page. */
  words: Word[];
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const decodeEntities = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) =>
    e[0] === "#"
      ? String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10))
      : (ENTITIES[e] ?? m),
  );

/** Parses `pdftotext -bbox` XHTML. */
export function parseBboxHtml(html: string): PageWords[] {
  const pages: PageWords[] = [];
  const pageRe = /<page width="([\d.]+)" height="([\d.]+)">([\s\S]*?)<\/page>/g;
  const wordRe = /<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">([\s\S]*?)<\/word>/g;
  for (const pm of html.matchAll(pageRe)) {
    const words: Word[] = [];
    for (const wm of pm[3]!.matchAll(wordRe)) {
      words.push({ text: decodeEntities(wm[5]!), xMin: +wm[1]!, yMin: +wm[2]!, xMax: +wm[3]!, yMax: +wm[4]! });
    }
    pages.push({ width: +pm[1]!, height: +pm[2]!, words });
  }
  return pages;
}

/** Every page's words with their boxes (`pdftotext -bbox`). */
export function wordBoxes(pdf: Uint8Array): Promise<PageWords[]> {
  return withPdfFile(pdf, async (path) => parseBboxHtml((await run("pdftotext", ["-bbox", path, "-"], BIG)).stdout));
}

export function pdfPageCount(pdf: Uint8Array): Promise<number> {
  return withPdfFile(pdf, async (path) => {
    const m = /^Pages:\s+(\d+)/m.exec((await run("pdfinfo", [path], BIG)).stdout);
    if (!m) throw new Error("pdfinfo printed no page count");
    return Number(m[1]);
  });
}

/** The PDF's text (`pdftotext`, reading order; `layout` keeps columns). */
export function pdfText(pdf: Uint8Array, opts: { layout?: boolean } = {}): Promise<string> {
  return withPdfFile(
    pdf,
    async (path) => (await run("pdftotext", [...(opts.layout ? ["-layout"] : []), path, "-"], BIG)).stdout,
  );
}

export interface PdfFont {
  /** Base font name without the subset prefix ("ABCDEF+Carlito" → "Carlito"). */
  name: string;
  type: string;
  embedded: boolean;
}

/** Fonts used by the PDF (`pdffonts`). */
export function pdfFonts(pdf: Uint8Array): Promise<PdfFont[]> {
  return withPdfFile(pdf, async (path) => {
    const lines = (await run("pdffonts", [path], BIG)).stdout
      .split("\n")
      .slice(2)
      .filter((l) => l.trim());
    return lines.map((line) => {
      const cols = line.trim().split(/\s+/);
      // name type [encoding...] emb sub uni object ID: the flags are the 5th-to-last..3rd-to-last columns.
      const emb = cols[cols.length - 5] === "yes";
      return { name: cols[0]!.replace(/^[A-Z]{6}\+/, ""), type: cols[1]!, embedded: emb };
    });
  });
}

/**
 * Each drawn glyph on page 1 (`mutool draw -F stext`), in drawing order: its text, font name (subset
 * tag and "-Regular" dropped), size, and origin (x, baseline y from the top, pt).
 */
export async function glyphFonts(
  pdf: Uint8Array,
): Promise<{ c: string; font: string; size: number; x: number; y: number }[]> {
  return withPdfFile(pdf, async (path) => {
    const { stdout } = await run("mutool", ["draw", "-F", "stext", "-o", "-", path, "1"], BIG);
    const out: { c: string; font: string; size: number; x: number; y: number }[] = [];
    for (const f of stdout.matchAll(/<font name="([^"]*)" size="([\d.]+)">([\s\S]*?)<\/font>/g)) {
      const font = f[1]!.replace(/^[A-Z]{6}\+/, "").replace(/-Regular$/, "");
      for (const c of f[3]!.matchAll(/<char [^>]*?x="([\d.-]+)" y="([\d.-]+)"[^>]*? c="([^"]*)"/g)) {
        const ch = c[3]!.replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)));
        if (ch.trim()) out.push({ c: ch, font, size: Math.round(Number(f[2])), x: Number(c[1]), y: Number(c[2]) });
      }
    }
    return out;
  });
}

/** `fc-match -s <family>` under our fonts.conf: the families fontconfig offers, best first. */
export async function fontMatches(family: string): Promise<string[]> {
  const { stdout } = await run("fc-match", ["-s", "--format=%{family[0]}\n", family], {
    env: fontEnv(),
    timeout: 60_000,
  });
  return stdout.split("\n").filter(Boolean);
}

/** The fill colour of each text-drawing operation on page 1 (`mutool draw -F trace`), with its text. */
export function textColors(pdf: Uint8Array): Promise<{ text: string; color: string }[]> {
  return withPdfFile(pdf, async (path) => {
    const trace = (await run("mutool", ["draw", "-F", "trace", "-o", "-", path, "1"], BIG)).stdout;
    const out: { text: string; color: string }[] = [];
    for (const m of trace.matchAll(/<fill_text [^>]*\bcolor="([^"]*)"[^>]*>([\s\S]*?)<\/fill_text>/g)) {
      const text = [...m[2]!.matchAll(/unicode="([^"]*)"/g)].map((g) => g[1]).join("");
      out.push({ text, color: m[1]! });
    }
    return out;
  });
}

/** The colour of each stroked path on page 1 (`mutool draw -F trace`): rules, underlines. */
export function strokeColors(pdf: Uint8Array): Promise<string[]> {
  return withPdfFile(pdf, async (path) => {
    const trace = (await run("mutool", ["draw", "-F", "trace", "-o", "-", path, "1"], BIG)).stdout;
    return [...trace.matchAll(/<stroke_path [^>]*\bcolor="([^"]*)"/g)].map((m) => m[1]!);
  });
}
