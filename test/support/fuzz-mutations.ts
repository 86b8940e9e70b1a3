/**
 * fast-check arbitraries that damage real documents the way hostile or broken producers do.
 * Shared by the engine fuzz tests (Node) and the HTTP fuzz tests (workerd): pure functions of
 * bytes, no Node APIs.
 *
 * Runs are bounded and reproducible: `fuzzParams()` gives a fixed seed and a small number of
 * runs unless FUZZ_SEED / FUZZ_RUNS say otherwise (`npm run fuzz` raises them).
 */
import fc from "fast-check";
import { unzipSync, zipSync, type Zippable } from "fflate";
import { concatBytes } from "../../src/util/bytes";

export interface FuzzEnv {
  FUZZ_RUNS?: string;
  FUZZ_SEED?: string;
}

/** fast-check parameters: fixed seed in CI, overridable for long local runs. */
export function fuzzParams(defaultRuns: number, env: FuzzEnv): { numRuns: number; seed: number; endOnFailure: true } {
  const runs = Number.parseInt(env.FUZZ_RUNS ?? "", 10);
  const seed = Number.parseInt(env.FUZZ_SEED ?? "", 10);
  return {
    numRuns: Number.isFinite(runs) && runs > 0 ? runs : defaultRuns,
    seed: Number.isFinite(seed) ? seed : 0x5167e7,
    // Shrinking re-runs the engines many times; the first counterexample (with its seed and path) is enough.
    endOnFailure: true,
  };
}

/**
 * The test timeout for a property run with `fuzzParams(defaultRuns, env)`: the usual bound for the
 * default run count, scaled up when FUZZ_RUNS asks for more (a hang still ends the test).
 */
export function fuzzTimeout(defaultRuns: number, env: FuzzEnv, baseMs = 120_000): number {
  const runs = fuzzParams(defaultRuns, env).numRuns;
  return Math.ceil(baseMs * Math.max(1, runs / defaultRuns));
}

/** A described mutation: `name` is what a failure prints, so a case can be kept as a regression. */
export interface Mutation {
  name: string;
  apply(bytes: Uint8Array): Uint8Array;
}

/** Counterexamples print as the mutation's name rather than its source text. */
function named(arb: fc.Arbitrary<Mutation>): fc.Arbitrary<Mutation> {
  return arb.map((m) => Object.assign(m, { [fc.toStringMethod]: () => JSON.stringify(m.name) }));
}

const latin1 = (bytes: Uint8Array): string => {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return s;
};
const fromLatin1 = (s: string): Uint8Array => {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
};
const concat = (...parts: Uint8Array[]): Uint8Array => concatBytes(parts);

/** Positions are fractions of the length so one arbitrary fits documents of any size. */
const frac = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });
const at = (f: number, len: number) => Math.min(len, Math.floor(f * len));

/** Replaces the `which`-th (mod count) match of `re` in the latin1 text with `replace(match)`. */
function replaceNth(bytes: Uint8Array, re: RegExp, which: number, replace: (m: RegExpExecArray) => string): Uint8Array {
  const text = latin1(bytes);
  const matches = [...text.matchAll(new RegExp(re.source, re.flags.includes("g") ? re.flags : re.flags + "g"))];
  if (!matches.length) return bytes;
  const m = matches[which % matches.length]! as RegExpExecArray;
  return fromLatin1(text.slice(0, m.index) + replace(m) + text.slice(m.index + m[0].length));
}

const hugeNumber = fc.constantFrom(
  "99999999999999999999999",
  "-1",
  "2147483648",
  "4294967296",
  "9007199254740993",
  "1e308",
  "-0",
  "0.0000000000000000001",
  "340282366920938463463374607431768211456",
  "00000000000000000000000000000000000001",
);

/** Byte-level damage that applies to any file. */
export const byteMutation: fc.Arbitrary<Mutation> = named(
  fc.oneof(
    fc.array(fc.tuple(frac, fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 16 }).map((flips) => ({
      name: `flip ${flips.map(([f, x]) => `${f.toFixed(6)}^${x}`).join(",")}`,
      apply: (b: Uint8Array) => {
        const out = b.slice();
        for (const [f, x] of flips) if (out.length) out[at(f, out.length - 1)]! ^= x;
        return out;
      },
    })),
    frac.map((f) => ({ name: `truncate ${f.toFixed(6)}`, apply: (b: Uint8Array) => b.slice(0, at(f, b.length)) })),
    fc.tuple(frac, frac, frac).map(([a, len, to]) => ({
      name: `duplicate ${a.toFixed(6)}+${len.toFixed(6)}@${to.toFixed(6)}`,
      apply: (b: Uint8Array) => {
        const s = at(a, b.length);
        const e = Math.min(b.length, s + at(len, Math.min(b.length, 64 * 1024)));
        const t = at(to, b.length);
        return concat(b.subarray(0, t), b.subarray(s, e), b.subarray(t));
      },
    })),
    fc.tuple(frac, frac).map(([a, len]) => ({
      name: `delete ${a.toFixed(6)}+${len.toFixed(6)}`,
      apply: (b: Uint8Array) => {
        const s = at(a, b.length);
        return concat(b.subarray(0, s), b.subarray(Math.min(b.length, s + 1 + at(len, 4096))));
      },
    })),
    fc.tuple(frac, fc.uint8Array({ minLength: 1, maxLength: 64 })).map(([f, junk]) => ({
      name: `insert ${f.toFixed(6)} [${Array.from(junk).join(",")}]`,
      apply: (b: Uint8Array) => concat(b.subarray(0, at(f, b.length)), junk, b.subarray(at(f, b.length))),
    })),
  ),
);

/** PDF-aware damage: the places where readers trust numbers and structure. */
export const pdfMutation: fc.Arbitrary<Mutation> = named(
  fc.oneof(
    { weight: 3, arbitrary: byteMutation },
    fc.tuple(fc.nat(), hugeNumber).map(([which, n]) => ({
      name: `startxref #${which} = ${n}`,
      apply: (b: Uint8Array) => replaceNth(b, /startxref\s+\d+/, which, () => `startxref\n${n}`),
    })),
    fc.tuple(fc.nat(), fc.integer({ min: -50, max: 50 })).map(([which, d]) => ({
      name: `startxref #${which} += ${d}`,
      apply: (b: Uint8Array) =>
        replaceNth(b, /startxref\s+(\d+)/, which, (m) => `startxref\n${Math.max(0, Number(m[1]) + d)}`),
    })),
    fc.tuple(fc.nat(), fc.nat({ max: 9_999_999_999 })).map(([which, off]) => ({
      name: `xref entry #${which} offset = ${off}`,
      apply: (b: Uint8Array) =>
        replaceNth(b, /\d{10} \d{5} [nf]/, which, (m) => `${String(off).padStart(10, "0")}${m[0].slice(10)}`),
    })),
    fc.tuple(fc.nat(), hugeNumber).map(([which, n]) => ({
      name: `/Length #${which} = ${n}`,
      apply: (b: Uint8Array) => replaceNth(b, /\/Length\s+\d+(\s+\d+\s+R)?/, which, () => `/Length ${n}`),
    })),
    fc
      .tuple(
        fc.nat(),
        hugeNumber,
        fc.constantFrom("Size", "Count", "Prev", "N", "First", "Columns", "Predictor", "W", "Index"),
      )
      .map(([which, n, key]) => ({
        name: `/${key} #${which} = ${n}`,
        apply: (b: Uint8Array) =>
          replaceNth(b, new RegExp(`/${key}\\s+(\\d+|\\[[^\\]]*\\])`), which, () => `/${key} ${n}`),
      })),
    fc.tuple(fc.nat(), hugeNumber).map(([which, n]) => ({
      name: `object ref #${which} = ${n} 0 R`,
      apply: (b: Uint8Array) => replaceNth(b, /\d+ \d+ R/, which, () => `${n} 0 R`),
    })),
    fc
      .tuple(frac, fc.integer({ min: 64, max: 100_000 }), fc.constantFrom("[", "<<", "<< /A [", "<< /Kids ["))
      .map(([f, depth, open]) => ({
        name: `nest ${open} x${depth} @${f.toFixed(6)}`,
        apply: (b: Uint8Array) =>
          concat(b.subarray(0, at(f, b.length)), fromLatin1(open.repeat(depth)), b.subarray(at(f, b.length))),
      })),
    fc.tuple(fc.nat(), fc.integer({ min: 64, max: 20_000 })).map(([which, depth]) => ({
      name: `nest in obj #${which} x${depth}`,
      apply: (b: Uint8Array) =>
        replaceNth(
          b,
          /\d+ 0 obj\s*/,
          which,
          (m) => `${m[0]}<< /Deep ${"[".repeat(depth)}${"]".repeat(depth)} >>\nendobj\n${m[0]}`,
        ),
    })),
    fc
      .tuple(
        fc.nat(),
        fc.constantFrom(
          "/FlateDecode",
          "/LZWDecode",
          "/ASCII85Decode",
          "/ASCIIHexDecode",
          "/RunLengthDecode",
          "[/FlateDecode /FlateDecode]",
          "/Crypt",
          "/JBIG2Decode",
        ),
      )
      .map(([which, filter]) => ({
        name: `/Filter #${which} = ${filter}`,
        apply: (b: Uint8Array) => replaceNth(b, /\/Filter\s*(\/\w+|\[[^\]]*\])/, which, () => `/Filter ${filter}`),
      })),
    fc.tuple(fc.nat(), fc.array(hugeNumber, { minLength: 4, maxLength: 4 })).map(([which, ns]) => ({
      name: `/ByteRange #${which} = [${ns.join(" ")}]`,
      apply: (b: Uint8Array) => replaceNth(b, /\/ByteRange\s*\[[^\]]*\]/, which, () => `/ByteRange [${ns.join(" ")}]`),
    })),
    fc
      .tuple(
        fc.nat(),
        fc.constantFrom("", "00", "30", "3080", "308006092a864886f70d010702a080", "ff".repeat(300), "3084ffffffff"),
      )
      .map(([which, hex]) => ({
        name: `/Contents #${which} = <${hex.slice(0, 40)}>`,
        apply: (b: Uint8Array) =>
          replaceNth(
            b,
            /\/Contents\s*<[0-9a-fA-F\s]*>/,
            which,
            (m) => `/Contents <${hex.padEnd(m[0].length - 12, "0")}>`,
          ),
      })),
    fc.tuple(fc.nat(), fc.nat()).map(([which, target]) => ({
      name: `/Prev #${which} loops to startxref #${target}`,
      apply: (b: Uint8Array) => {
        const text = latin1(b);
        const starts = [...text.matchAll(/startxref\s+(\d+)/g)].map((m) => m[1]!);
        if (!starts.length) return b;
        return replaceNth(b, /\/Prev\s+\d+/, which, () => `/Prev ${starts[target % starts.length]}`);
      },
    })),
  ),
);

/** A DOCX as its entries, for XML-level mutations that re-zip. */
export function unzipDocx(bytes: Uint8Array): Record<string, Uint8Array> {
  return unzipSync(bytes);
}

const xmlSnippet = fc.constantFrom(
  "<w:sdt>",
  "</w:sdt>",
  '<w:sdt><w:sdtPr><w:tag w:val="x"/></w:sdtPr><w:sdtContent>',
  "</w:sdtContent>",
  "<w:sdtContent>",
  "<w:r><w:t>",
  "</w:t></w:r>",
  '<w:tag w:val=\'{"fieldId":"x","group":1}\'/>',
  '<w:id w:val="99999999999999999999"/>',
  '<!DOCTYPE w [<!ENTITY a "aaaa">]>',
  '<!ENTITY x SYSTEM "file:///etc/passwd">',
  "&x;",
  "&#0;",
  "&#x110000;",
  "&amp",
  "<![CDATA[",
  "]]>",
  '<?xml version="1.0"?>',
  "<!--",
  "-->",
  "\u0000",
  "\uFFFF",
  "\uD800",
  '<w:pgSz w:w="-5" w:h="1e308"/>',
  '<w:pgMar w:left="99999999999" w:right="99999999999"/>',
  "<w:checkbox/>",
  '<w14:checkbox><w14:checked w14:val="1"/></w14:checkbox>',
  '<w:date w:fullDate="not-a-date"><w:dateFormat w:val="%s%n"/></w:date>',
  "<w:picture/>",
  '<wp:docPr id="4294967296" name="x"/>',
  '<a:blip r:embed="rIdMissing"/>',
  "<w:tbl><w:tr><w:tc>",
  "</w:tc></w:tr></w:tbl>",
  "<w:p>",
  "</w:p>",
  ">",
  "<",
  '"',
  "=",
);

/** Damage to document.xml (or another scanned part), then re-zipped with honest headers. */
export const docxXmlMutation: fc.Arbitrary<Mutation> = named(
  fc.oneof(
    fc.array(fc.tuple(frac, xmlSnippet), { minLength: 1, maxLength: 8 }).map((edits) => ({
      name: `xml insert ${edits.map(([f, s]) => `${f.toFixed(6)}:${JSON.stringify(s)}`).join(" ")}`,
      apply: (xml: Uint8Array) => {
        let s = latin1(xml);
        for (const [f, snippet] of edits) {
          const i = at(f, s.length);
          s = s.slice(0, i) + latin1(new TextEncoder().encode(snippet)) + s.slice(i);
        }
        return fromLatin1(s);
      },
    })),
    fc
      .tuple(
        frac,
        fc.integer({ min: 100, max: 50_000 }),
        fc.constantFrom("<w:p>", "<w:sdt><w:sdtContent>", "<a>", "<w:tbl><w:tr><w:tc>"),
      )
      .map(([f, n, open]) => ({
        name: `xml nest ${open} x${n} @${f.toFixed(6)}`,
        apply: (xml: Uint8Array) => {
          const s = latin1(xml);
          const i = at(f, s.length);
          return fromLatin1(s.slice(0, i) + open.repeat(n) + s.slice(i));
        },
      })),
    fc
      .tuple(fc.nat(), fc.constantFrom("", "x", '"', "'", "<", "&", "{", '{"fieldId":', "[1,2]", "null", "\u202E"))
      .map(([which, v]) => ({
        name: `xml attr #${which} = ${JSON.stringify(v)}`,
        apply: (xml: Uint8Array) => replaceNth(xml, /w:val="[^"]*"/, which, () => `w:val="${v}"`),
      })),
    fc.tuple(fc.nat(), fc.nat()).map(([which, n]) => ({
      name: `xml drop tag #${which} (${n})`,
      apply: (xml: Uint8Array) =>
        replaceNth(xml, /<\/?w:(sdt|sdtContent|sdtPr|p|r|t|tc|tr|tbl)\b[^>]*>/, which + n, () => ""),
    })),
    byteMutation,
  ),
);

/** ZIP-level damage of a DOCX: lying sizes, broken headers, renamed or missing entries. */
export const docxZipMutation: fc.Arbitrary<Mutation> = named(
  fc.oneof(
    { weight: 2, arbitrary: byteMutation },
    fc
      .tuple(fc.nat(), fc.constantFrom(0, 1, 0x7fffffff, 0xffffffff, 0xfffffffe), fc.constantFrom(20, 24))
      .map(([which, size, field]) => ({
        // Central directory header: compressed size at +20, uncompressed size at +24.
        name: `central #${which} ${field === 20 ? "compressed" : "uncompressed"} size = ${size}`,
        apply: (b: Uint8Array) => patchRecord(b, 0x02014b50, which, field, size),
      })),
    fc
      .tuple(fc.nat(), fc.constantFrom(0, 1, 0x7fffffff, 0xffffffff), fc.constantFrom(18, 22))
      .map(([which, size, field]) => ({
        // Local header: compressed size at +18, uncompressed size at +22.
        name: `local #${which} ${field === 18 ? "compressed" : "uncompressed"} size = ${size}`,
        apply: (b: Uint8Array) => patchRecord(b, 0x04034b50, which, field, size),
      })),
    fc.tuple(fc.nat(), fc.constantFrom(0, 1, 0xffffffff, 0x7fffffff)).map(([which, offset]) => ({
      name: `central #${which} local offset = ${offset}`,
      apply: (b: Uint8Array) => patchRecord(b, 0x02014b50, which, 42, offset),
    })),
    fc.tuple(fc.nat(), fc.constantFrom(0, 1, 9, 12, 14, 99, 0xffff)).map(([which, method]) => ({
      name: `central #${which} method = ${method}`,
      apply: (b: Uint8Array) => patchRecord(b, 0x02014b50, which, 10, method, 2),
    })),
    fc.tuple(fc.constantFrom(0, 1, 0xffff), fc.constantFrom(8, 10)).map(([count, field]) => ({
      name: `EOCD ${field === 8 ? "disk" : "total"} entries = ${count}`,
      apply: (b: Uint8Array) => patchRecord(b, 0x06054b50, -1, field, count, 2),
    })),
    fc.tuple(fc.constantFrom(0, 1, 0xffffffff), fc.constantFrom(12, 16)).map(([value, field]) => ({
      name: `EOCD ${field === 12 ? "directory size" : "directory offset"} = ${value}`,
      apply: (b: Uint8Array) => patchRecord(b, 0x06054b50, -1, field, value),
    })),
  ),
);

/** Writes a little-endian field of the `which`-th (mod count; -1 = last) record with the given signature. */
function patchRecord(
  b: Uint8Array,
  signature: number,
  which: number,
  field: number,
  value: number,
  width: 2 | 4 = 4,
): Uint8Array {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const offsets: number[] = [];
  for (let i = 0; i + 4 <= b.length; i++) if (view.getUint32(i, true) === signature) offsets.push(i);
  if (!offsets.length) return b;
  const base = which < 0 ? offsets[offsets.length - 1]! : offsets[which % offsets.length]!;
  if (base + field + width > b.length) return b;
  const out = b.slice();
  const v = new DataView(out.buffer);
  if (width === 2) v.setUint16(base + field, value & 0xffff, true);
  else v.setUint32(base + field, value >>> 0, true);
  return out;
}

/** Applies an XML mutation to one part of a DOCX and re-zips it (deflated, honest sizes). */
export function mutateDocxPart(docx: Uint8Array, part: string, mutation: Mutation): Uint8Array {
  const entries = unzipSync(docx);
  const target = entries[part] ? part : Object.keys(entries).find((n) => /document\.xml$/.test(n));
  if (!target) return docx;
  const zippable: Zippable = {};
  for (const [name, data] of Object.entries(entries)) {
    zippable[name] = [name === target ? new Uint8Array(mutation.apply(data)) : data, { level: 1 }];
  }
  return zipSync(zippable);
}
