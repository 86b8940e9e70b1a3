/**
 * HarfBuzz (compiled to WebAssembly by the harfbuzzjs package, wasm/harfbuzz.wasm) driven through
 * its raw C exports: blob → face → font, a buffer of UTF-16 text with script, direction and
 * language, `hb_shape`, and the glyph infos and positions read back from the module's linear
 * memory. harfbuzzjs's own JavaScript API is not used: its loader takes Node's path in workerd and
 * its `addFunction` compiles WebAssembly at run time, which Workers forbid. Nothing here needs a
 * callback into JavaScript: a blob made with a null destroy function never calls back.
 *
 * The module is given, not loaded here (one seam, two loaders): the worker imports the compiled
 * module (shaping/worker-module.ts, `import … from "*.wasm"`), Node tools compile the same file from
 * disk (scripts/lib/node-harfbuzz.ts).
 *
 * Results are in font units (the font's scale is set to its units per em), so one shaped run serves
 * every size: multiply by size / unitsPerEm.
 */

/** The C functions of harfbuzz.wasm this glue calls (pointers and enums are i32 numbers). */
interface HbExports {
  memory: WebAssembly.Memory;
  __wasm_call_ctors(): void;
  malloc(size: number): number;
  free(ptr: number): void;
  hb_blob_create(data: number, length: number, mode: number, userData: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_get_upem(face: number): number;
  hb_font_create(face: number): number;
  hb_font_destroy(font: number): void;
  hb_font_set_scale(font: number, x: number, y: number): void;
  hb_buffer_create(): number;
  hb_buffer_destroy(buffer: number): void;
  hb_buffer_clear_contents(buffer: number): void;
  hb_buffer_add_utf16(buffer: number, text: number, textLength: number, itemOffset: number, itemLength: number): void;
  hb_buffer_set_direction(buffer: number, direction: number): void;
  hb_buffer_set_script(buffer: number, script: number): void;
  hb_buffer_set_language(buffer: number, language: number): void;
  hb_buffer_set_flags(buffer: number, flags: number): void;
  hb_buffer_set_cluster_level(buffer: number, level: number): void;
  hb_buffer_guess_segment_properties(buffer: number): void;
  hb_buffer_get_length(buffer: number): number;
  hb_buffer_get_glyph_infos(buffer: number, length: number): number;
  hb_buffer_get_glyph_positions(buffer: number, length: number): number;
  hb_language_from_string(str: number, length: number): number;
  hb_shape(font: number, buffer: number, features: number, numFeatures: number): void;
}

/** hb_memory_mode_t: HarfBuzz reads the font where we put it and never writes it. */
const HB_MEMORY_MODE_READONLY = 1;
/** hb_direction_t. */
const DIRECTION = { ltr: 4, rtl: 5 } as const;
/** hb_buffer_flags_t: the item starts / ends the text (no context beyond it). */
const HB_BUFFER_FLAG_BOT = 1;
const HB_BUFFER_FLAG_EOT = 2;
/**
 * hb_buffer_cluster_level_t 1 (MONOTONE_CHARACTERS): marks keep clusters of their own, so a line
 * may be measured and copied character by character; LibreOffice's layout asks for the same level.
 */
const HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS = 1;
/** sizeof(hb_glyph_info_t) and sizeof(hb_glyph_position_t) in wasm32: five 32-bit fields each. */
const GLYPH_RECORD_BYTES = 20;
/** sizeof(hb_feature_t): tag, value, start, end. */
const FEATURE_BYTES = 16;
/** Font files larger than this are not shaped (the caller falls back): a guard, not a feature. */
export const MAX_SHAPED_FONT_BYTES = 32 * 1024 * 1024;
/** Text longer than this (UTF-16 units) is refused in one call: the caller splits paragraphs. */
export const MAX_SHAPED_TEXT_UNITS = 1 << 20;

/** A scratch area up to this size stays allocated between calls. */
const KEPT_SCRATCH_BYTES = 64 * 1024;

/** Distinct languages one shaper interns (HarfBuzz never frees them). */
const MAX_LANGUAGES = 256;

export type Direction = keyof typeof DIRECTION;

/** An OpenType feature switched on or off for a range of the text (all of it by default). */
export interface FeatureSetting {
  /** Four-letter tag ("liga", "kern"). */
  tag: string;
  /** 0 off, 1 on (or an alternate's index). */
  value: number;
  /** UTF-16 offsets in the shaped text; end exclusive. Default: the whole text. */
  start?: number;
  end?: number;
}

export interface ShapeOptions {
  /** ISO 15924 tag ("Latn", "Arab", "Hebr", "Deva"); guessed from the text when absent. */
  script?: string;
  /** Guessed from the script when absent. */
  direction?: Direction;
  /** BCP 47 ("en", "ar", "hi"): selects a script's language system in the font (e.g. Turkish "fi"). */
  language?: string;
  features?: readonly FeatureSetting[];
  /**
   * Shape only `text.slice(start, end)`, with the rest of `text` as context (Arabic joining across
   * a run boundary: a run in another colour still joins its neighbours). Default: all of `text`.
   */
  start?: number;
  end?: number;
}

/** One shaped run, glyphs in visual order (left to right, also for right-to-left text). */
export interface GlyphRun {
  /** Glyph ids of the face. */
  readonly glyphs: Uint32Array;
  /**
   * The UTF-16 offset in the shaped text of the first character each glyph comes from: glyphs of
   * one cluster share it; a ligature's cluster covers every character up to the next cluster.
   */
  readonly clusters: Uint32Array;
  /** Advances and offsets, font units. Offsets move a glyph (a mark over its base) without moving the pen. */
  readonly xAdvances: Int32Array;
  readonly yAdvances: Int32Array;
  readonly xOffsets: Int32Array;
  readonly yOffsets: Int32Array;
  readonly unitsPerEm: number;
}

/** A font file loaded into HarfBuzz. `destroy()` frees its memory in the module. */
export interface ShapingFace {
  readonly unitsPerEm: number;
  shape(text: string, options?: ShapeOptions): GlyphRun;
  destroy(): void;
}

export interface Shaper {
  /** Loads a TrueType/OpenType file (copied into the module). A file HarfBuzz cannot read shapes every character to glyph 0. */
  face(bytes: Uint8Array): ShapingFace;
}

/** The env and WASI functions harfbuzz.wasm imports: none of them is reached in shaping. */
function imports(memory: () => WebAssembly.Memory): WebAssembly.Imports {
  const abort = (what: string) => () => {
    throw new Error(`harfbuzz: ${what}`);
  };
  const host = {
    _abort_js: abort("abort"),
    proc_exit: abort("exit"),
    _emscripten_runtime_keepalive_clear: () => {},
    // Timers are only used by Emscripten's setitimer emulation, not by HarfBuzz.
    _setitimer_js: () => 0,
    // malloc asks for more memory: grow by whole 64 KiB pages; 0 tells it there is none.
    emscripten_resize_heap: (requested: number) => {
      const mem = memory();
      const need = (requested >>> 0) - mem.buffer.byteLength;
      if (need <= 0) return 1;
      try {
        mem.grow(Math.ceil(need / 65536));
        return 1;
      } catch {
        return 0;
      }
    },
  };
  return { env: host, wasi_snapshot_preview1: host };
}

/** Instantiates HarfBuzz from its compiled module (one instance per isolate or process is enough). */
export async function createShaper(module: WebAssembly.Module): Promise<Shaper> {
  let exports: HbExports | undefined;
  const instance = await WebAssembly.instantiate(
    module,
    imports(() => exports!.memory),
  );
  exports = instance.exports as unknown as HbExports;
  exports.__wasm_call_ctors();
  return new HarfBuzzShaper(exports);
}

class HarfBuzzShaper implements Shaper {
  private readonly buffer: number;
  private readonly languages = new Map<string, number>();

  constructor(private readonly hb: HbExports) {
    this.buffer = hb.hb_buffer_create();
  }

  face(bytes: Uint8Array): ShapingFace {
    if (bytes.length > MAX_SHAPED_FONT_BYTES)
      throw new RangeError(`font of ${bytes.length} bytes is over the shaping limit`);
    const hb = this.hb;
    const data = this.alloc(Math.max(1, bytes.length));
    new Uint8Array(hb.memory.buffer, data, bytes.length).set(bytes);
    const blob = hb.hb_blob_create(data, bytes.length, HB_MEMORY_MODE_READONLY, 0, 0);
    const face = hb.hb_face_create(blob, 0);
    hb.hb_blob_destroy(blob); // the face holds its own reference
    const upem = hb.hb_face_get_upem(face) || 1000;
    const font = hb.hb_font_create(face);
    hb.hb_font_set_scale(font, upem, upem);
    let live = true;
    return {
      unitsPerEm: upem,
      shape: (text, options) => {
        if (!live) throw new Error("harfbuzz: face used after destroy()");
        return this.shape(font, upem, text, options ?? {});
      },
      destroy: () => {
        if (!live) return;
        live = false;
        hb.hb_font_destroy(font);
        hb.hb_face_destroy(face);
        hb.free(data); // after the face: the blob pointed into it
      },
    };
  }

  private shape(font: number, upem: number, text: string, o: ShapeOptions): GlyphRun {
    const hb = this.hb;
    if (text.length > MAX_SHAPED_TEXT_UNITS)
      throw new RangeError(`text of ${text.length} units is over the shaping limit`);
    const start = Math.max(0, Math.min(o.start ?? 0, text.length));
    const end = Math.max(start, Math.min(o.end ?? text.length, text.length));
    const buf = this.buffer;
    hb.hb_buffer_clear_contents(buf);
    // One scratch area for the text and the features, kept between calls (grown when too small):
    // a word is shaped in microseconds, and two mallocs and frees a call were a good part of it.
    const featureBytes = (o.features?.length ?? 0) * FEATURE_BYTES;
    const base = this.scratch(featureBytes + Math.max(2, text.length * 2));
    const featurePtr = featureBytes ? base : 0;
    const textPtr = base + featureBytes;
    const units = new Uint16Array(hb.memory.buffer, textPtr, text.length);
    for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
    hb.hb_buffer_set_cluster_level(buf, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS);
    hb.hb_buffer_set_flags(
      buf,
      (start === 0 ? HB_BUFFER_FLAG_BOT : 0) | (end === text.length ? HB_BUFFER_FLAG_EOT : 0),
    );
    hb.hb_buffer_add_utf16(buf, textPtr, text.length, start, end - start);
    if (o.script) hb.hb_buffer_set_script(buf, scriptTag(o.script));
    if (o.direction) hb.hb_buffer_set_direction(buf, DIRECTION[o.direction]);
    const language = o.language ? this.language(o.language) : 0;
    if (language) hb.hb_buffer_set_language(buf, language);
    hb.hb_buffer_guess_segment_properties(buf); // fills in only what was not set
    if (featurePtr) {
      // Views made after hb_buffer_add_utf16: growing memory there detaches earlier ones.
      const view = new DataView(hb.memory.buffer, featurePtr, featureBytes);
      o.features!.forEach((f, i) => {
        view.setUint32(i * FEATURE_BYTES, tag(f.tag), true);
        view.setUint32(i * FEATURE_BYTES + 4, f.value >>> 0, true);
        view.setUint32(i * FEATURE_BYTES + 8, f.start ?? 0, true);
        view.setUint32(i * FEATURE_BYTES + 12, f.end ?? 0xffffffff, true);
      });
    }
    hb.hb_shape(font, buf, featurePtr, o.features?.length ?? 0);
    const run = this.readGlyphs(buf, upem);
    // A paragraph-sized scratch area is given back; a word-sized one is kept.
    if (this.scratchBytes > KEPT_SCRATCH_BYTES) this.releaseScratch();
    return run;
  }

  private scratchPtr = 0;
  private scratchBytes = 0;

  /** At least `bytes` of the module's memory for one call (the text must be copied in after any growth). */
  private scratch(bytes: number): number {
    if (bytes > this.scratchBytes) {
      this.releaseScratch();
      const size = Math.max(bytes, 1024);
      this.scratchPtr = this.alloc(size);
      this.scratchBytes = size;
    }
    return this.scratchPtr;
  }

  private releaseScratch(): void {
    if (this.scratchPtr) this.hb.free(this.scratchPtr);
    this.scratchPtr = this.scratchBytes = 0;
  }

  /** Copies the buffer's glyph infos and positions out of linear memory. */
  private readGlyphs(buf: number, upem: number): GlyphRun {
    const hb = this.hb;
    const n = hb.hb_buffer_get_length(buf);
    const infos = hb.hb_buffer_get_glyph_infos(buf, 0);
    const positions = hb.hb_buffer_get_glyph_positions(buf, 0);
    // Views made after hb_shape: growing memory during shaping detaches earlier ones.
    const info = new Uint32Array(hb.memory.buffer, infos, (n * GLYPH_RECORD_BYTES) / 4);
    const pos = new Int32Array(hb.memory.buffer, positions, (n * GLYPH_RECORD_BYTES) / 4);
    const run = {
      glyphs: new Uint32Array(n),
      clusters: new Uint32Array(n),
      xAdvances: new Int32Array(n),
      yAdvances: new Int32Array(n),
      xOffsets: new Int32Array(n),
      yOffsets: new Int32Array(n),
      unitsPerEm: upem,
    };
    for (let i = 0, k = 0; i < n; i++, k += GLYPH_RECORD_BYTES / 4) {
      run.glyphs[i] = info[k]!; // codepoint: the glyph id after shaping
      run.clusters[i] = info[k + 2]!;
      run.xAdvances[i] = pos[k]!;
      run.yAdvances[i] = pos[k + 1]!;
      run.xOffsets[i] = pos[k + 2]!;
      run.yOffsets[i] = pos[k + 3]!;
    }
    return run;
  }

  /**
   * hb_language_t pointers are interned by HarfBuzz for the life of the instance: each is looked up
   * once, and past MAX_LANGUAGES distinct tags (a hostile document) the default language is used.
   */
  private language(bcp47: string): number {
    let lang = this.languages.get(bcp47);
    if (lang === undefined) {
      if (this.languages.size >= MAX_LANGUAGES) return 0;
      const ascii = bcp47.replace(/[^A-Za-z0-9-]/g, "").slice(0, 35);
      const ptr = this.alloc(ascii.length + 1);
      const bytes = new Uint8Array(this.hb.memory.buffer, ptr, ascii.length);
      for (let i = 0; i < ascii.length; i++) bytes[i] = ascii.charCodeAt(i);
      lang = this.hb.hb_language_from_string(ptr, ascii.length);
      this.hb.free(ptr);
      this.languages.set(bcp47, lang);
    }
    return lang;
  }

  private alloc(size: number): number {
    const ptr = this.hb.malloc(size);
    if (!ptr) throw new RangeError(`harfbuzz: out of memory allocating ${size} bytes`);
    return ptr;
  }
}

/** hb_script_t: the ISO 15924 tag as HarfBuzz spells it ("Arab"). */
function scriptTag(s: string): number {
  return tag(s.charAt(0).toUpperCase() + s.slice(1, 4).toLowerCase());
}

/** HB_TAG: four ASCII letters, big-endian, spaces for missing ones. */
function tag(s: string): number {
  const t = (s + "    ").slice(0, 4);
  return (
    (((t.charCodeAt(0) & 0xff) << 24) |
      ((t.charCodeAt(1) & 0xff) << 16) |
      ((t.charCodeAt(2) & 0xff) << 8) |
      (t.charCodeAt(3) & 0xff)) >>>
    0
  );
}
