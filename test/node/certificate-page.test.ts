// The certificate page engine, checked as a reader would: pdftotext for what the
// page says, pdftotext -bbox for clipping and overlaps, zbarimg for the QR code.
// Needs poppler-utils and zbar-tools (installed by .ci/run).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderCertificatePages } from "../../src/evidence/certificate-page";
import { collapseAuditTrail, type AuditEntry } from "../../src/evidence/collapse";
import { encodeQr, QR_MAX_BYTES } from "../../src/evidence/qr";
import type { CertificateFonts, CertificatePageInput } from "../../src/evidence/types";
import { certificateFontsFromFiles } from "./support/certificate-fonts";

const fonts: CertificateFonts = certificateFontsFromFiles();

const MM = 72 / 25.4;
const DOC_SHA = "5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef";
const CERT_SHA = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "signet-cert-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A realistic trail: ready, scrolls (one with percent null), one field_change per keystroke, two submits. */
function realisticTrail(total: number): AuditEntry[] {
  const fields: [string, string][] = [
    ["full_name", "Дмитрий Шостакович"],
    ["email", "dmitri.shostakovich@example.org"],
    ["company", "Leningrad Philharmonic Orchestra"],
    ["address", "Nevsky Prospekt 28, Saint Petersburg 191186, Russia"],
    ["comment", "I have read the agreement and its annexes and I accept them without reservation."],
  ];
  let t = Date.UTC(2026, 10, 21, 9, 40, 0);
  const out: AuditEntry[] = [];
  const stamp = (ms: number, offset = false) => {
    t += ms;
    // Some entries carry an offset instead of Z: same instant.
    if (!offset) return new Date(t).toISOString();
    const local = new Date(t + 2 * 3_600_000).toISOString().slice(0, 19);
    return `${local}+02:00`;
  };
  out.push({ type: "ready", timestamp: stamp(0), data: { pages: 4, viewport: { w: 1280, h: 800 } } });
  let round = 0;
  while (out.length < total - 2) {
    for (let s = 0; s < 6 && out.length < total - 2; s++) {
      out.push({
        type: "scroll",
        timestamp: stamp(400, s === 2),
        data: { percent: round === 0 && s === 3 ? null : Math.min(100, round * 7 + s * 3) },
      });
    }
    const [field, value] = fields[round % fields.length]!;
    for (let k = 1; k <= value.length && out.length < total - 2; k++) {
      out.push({
        type: "field_change",
        timestamp: stamp(90 + (k % 7) * 11, k % 10 === 0),
        data: { fieldId: field, value: value.slice(0, k) },
      });
    }
    round++;
  }
  out.push({ type: "submit", timestamp: stamp(3000), data: { step: "review" } });
  out.push({ type: "submit", timestamp: stamp(2500), data: { step: "confirm" } });
  expect(out).toHaveLength(total);
  return out;
}

function baseInput(trail: AuditEntry[], overrides: Partial<CertificatePageInput> = {}): CertificatePageInput {
  return {
    signer: { name: "Дмитрий Шостакович", email: "dmitri.shostakovich@example.org", ip: "203.0.113.42", userAgent: UA },
    eventId: "evt_01JD7X4Q2M8K5R3T9V6W0YZABC",
    signedAt: new Date(Date.UTC(2026, 10, 21, 10, 0, 0)),
    documentSha256: DOC_SHA,
    documentPages: 4,
    certificate: {
      subject: "CN=Signet Signing, O=Signet Example B.V., C=NL",
      issuer: "CN=Signet Example CA, O=Signet Example B.V., C=NL",
      sha256: CERT_SHA,
    },
    auditTrail: trail,
    qrPayload: DOC_SHA,
    reference: "Contract 2026/11/0042",
    level: "B-B",
    ...overrides,
  };
}

function save(name: string, pdf: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, pdf);
  return path;
}

function pdftotext(path: string, ...args: string[]): string {
  return execFileSync("pdftotext", [...args, path, "-"], { encoding: "utf8" });
}

function pageCount(path: string): number {
  const info = execFileSync("pdfinfo", [path], { encoding: "utf8" });
  return Number(/^Pages:\s+(\d+)/m.exec(info)![1]);
}

interface Word {
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

function words(path: string): { words: Word[]; width: number; height: number } {
  const html = pdftotext(path, "-bbox");
  const out: Word[] = [];
  let width = 0;
  let height = 0;
  let page = 0;
  const re =
    /<page width="([\d.]+)" height="([\d.]+)">|<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    if (m[1]) {
      page++;
      width = Number(m[1]);
      height = Number(m[2]);
    } else {
      out.push({ page, text: m[7]!, xMin: Number(m[3]), yMin: Number(m[4]), xMax: Number(m[5]), yMax: Number(m[6]) });
    }
  }
  return { words: out, width, height };
}

/** No two word boxes on a page overlap; every box lies within the page margins. */
function expectCleanLayout(path: string): void {
  const { words: ws, width, height } = words(path);
  expect(ws.length).toBeGreaterThan(50);
  const margin = 10 * MM;
  for (const w of ws) {
    const where = `"${w.text}" on page ${w.page} at (${w.xMin.toFixed(1)}, ${w.yMin.toFixed(1)})`;
    expect(w.xMin, where).toBeGreaterThanOrEqual(margin);
    expect(w.xMax, where).toBeLessThanOrEqual(width - margin);
    expect(w.yMin, where).toBeGreaterThanOrEqual(8 * MM);
    expect(w.yMax, where).toBeLessThanOrEqual(height - 8 * MM);
  }
  const eps = 0.05;
  const byPage = new Map<number, Word[]>();
  for (const w of ws) byPage.set(w.page, [...(byPage.get(w.page) ?? []), w]);
  for (const list of byPage.values()) {
    list.sort((a, b) => a.xMin - b.xMin);
    for (let i = 0; i < list.length; i++) {
      const a = list[i]!;
      for (let j = i + 1; j < list.length && list[j]!.xMin < a.xMax - eps; j++) {
        const b = list[j]!;
        const overlap =
          a.xMax - eps > b.xMin && b.xMax - eps > a.xMin && a.yMax - eps > b.yMin && b.yMax - eps > a.yMin;
        expect(overlap, `"${a.text}" overlaps "${b.text}" on page ${a.page}`).toBe(false);
      }
    }
  }
}

/** Decodes QR codes only (other symbologies disabled); zbar's chatter on stderr is dropped. */
function zbar(file: string): string {
  return execFileSync("zbarimg", ["-q", "--raw", "-Sdisable", "-Sqrcode.enable", file], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
}

const squash = (s: string) => s.replace(/\s+/g, " ");

describe("certificate page: 2,000-event realistic trail", () => {
  const trail = realisticTrail(2000);
  let path: string;
  let text: string;
  let ms: number;

  beforeAll(async () => {
    const started = performance.now();
    const pdf = await renderCertificatePages(baseInput(trail), fonts);
    ms = performance.now() - started;
    path = save("realistic.pdf", pdf);
    text = pdftotext(path, "-layout");
  });

  it("shows the signer, event, time, hashes and certificate", () => {
    console.log(`2,000 events: ${pageCount(path)} pages, ${ms.toFixed(0)} ms (first render in this process)`);
    const flat = squash(text);
    for (const item of [
      "Signature certificate",
      "Дмитрий Шостакович",
      "dmitri.shostakovich@example.org",
      "203.0.113.42",
      "evt_01JD7X4Q2M8K5R3T9V6W0YZABC",
      "2026-11-21 10:00:00 UTC",
      DOC_SHA,
      CERT_SHA,
      "CN=Signet Signing, O=Signet Example B.V., C=NL",
      "CN=Signet Example CA, O=Signet Example B.V., C=NL",
      "Contract 2026/11/0042",
      "the digital signature covers it",
      "PAdES baseline B-B",
    ]) {
      expect(flat, item).toContain(item);
    }
    // The user agent fits on one line here; allow a wrap at its spaces anyway.
    expect(flat).toContain(squash(UA));
  });

  it("shows the collapsed audit trail with counts, times and final values, and both submits", () => {
    const lines = collapseAuditTrail(trail);
    expect(lines.length).toBeLessThan(trail.length / 10);
    const flat = squash(text);
    const fieldLines = lines.filter((l) => l.type === "field_change");
    expect(fieldLines.length).toBeGreaterThan(5);
    for (const l of fieldLines) {
      const re = new RegExp(`field_change ×${l.count.toLocaleString("en-US")}\\s+${l.field}`);
      expect(flat, `line for ${l.field} ×${l.count}`).toMatch(re);
    }
    expect(flat).toMatch(/field_change ×\d+ full_name .*final: "Дмитрий Шостакович"/);
    expect(flat).toMatch(/field_change ×\d+ email .*final: "dmitri\.shostakovich@example\.org"/);
    const scrollLines = lines.filter((l) => l.type === "scroll");
    for (const l of scrollLines) expect(flat).toContain(`scroll ×${l.count}`);
    // The first scroll run ends on a real percentage though one of its events has percent null.
    expect(flat).toMatch(/scroll ×6 .*final position: \d+%/);
    // Time ranges: first–last.
    expect(flat).toMatch(/\d{2}:\d{2}:\d{2}–\d{2}:\d{2}:\d{2}/);
    const submits = text.split("\n").filter((l) => /\bsubmit\b/.test(l));
    expect(submits).toHaveLength(2);
    expect(submits[0]).toContain("review");
    expect(submits[1]).toContain("confirm");
    expect(flat).toContain("End of the audit trail: 2,000 events in");
    expect(flat).toContain("2,000 events");
  });

  it("paginates with a footer on every page, nothing clipped or overlapping", () => {
    const pages = pageCount(path);
    expect(pages).toBeGreaterThanOrEqual(2);
    for (let p = 1; p <= pages; p++) {
      const pageText = pdftotext(path, "-layout", "-f", String(p), "-l", String(p));
      expect(pageText).toContain(`Page ${p} of ${pages} of the certificate`);
      expect(pageText).toContain("evt_01JD7X4Q2M8K5R3T9V6W0YZABC");
    }
    // Every collapsed line appears exactly once, numbered 1..N across the pages.
    const numbers = [...text.matchAll(/^\s*(\d+)\s+2026-11-21\s/gm)].map((m) => Number(m[1]));
    expect(numbers).toEqual(Array.from({ length: collapseAuditTrail(trail).length }, (_, i) => i + 1));
    expectCleanLayout(path);
  });

  it("carries the payload in a QR code that decodes", () => {
    const png = join(dir, "qr");
    execFileSync("pdftoppm", ["-r", "200", "-png", "-f", "1", "-l", "1", "-singlefile", path, png]);
    const decoded = zbar(`${png}.png`).trim();
    expect(decoded).toBe(DOC_SHA);
  });

  it("gives the same bytes for the same input", async () => {
    const again = await renderCertificatePages(baseInput(trail), fonts);
    expect(Buffer.compare(Buffer.from(again), readFileSync(path))).toBe(0);
  });
});

describe("certificate page: sizes and edge cases", () => {
  it("short trail: one page; long uncollapsible trail: many pages, all lines present", async () => {
    const short = save(
      "short.pdf",
      await renderCertificatePages(
        baseInput(
          realisticTrail(3)
            .slice(0, 1)
            .concat([
              { type: "submit", timestamp: "2026-11-21T09:59:00Z" },
              { type: "submit", timestamp: "2026-11-21T09:59:30Z" },
            ]),
        ),
        fonts,
      ),
    );
    expect(pageCount(short)).toBe(1);
    expectCleanLayout(short);

    // Alternating fields never collapse: one line per event.
    const t0 = Date.UTC(2026, 10, 21, 8, 0, 0);
    const trail: AuditEntry[] = Array.from({ length: 600 }, (_, i) => ({
      type: "field_change",
      timestamp: new Date(t0 + i * 1000).toISOString(),
      data: { fieldId: i % 2 ? "a" : "b", value: `v${i}` },
    }));
    trail.push({ type: "submit", timestamp: new Date(t0 + 700_000).toISOString() });
    const long = save("long.pdf", await renderCertificatePages(baseInput(trail), fonts));
    const pages = pageCount(long);
    expect(pages).toBeGreaterThan(
      pageCount(save("realistic-again.pdf", await renderCertificatePages(baseInput(realisticTrail(2000)), fonts))),
    );
    expect(pages).toBeGreaterThanOrEqual(12);
    const text = pdftotext(long, "-layout");
    expect([...text.matchAll(/^\s*(\d+)\s+2026-11-21\s/gm)].map((m) => Number(m[1]))).toEqual(
      Array.from({ length: 601 }, (_, i) => i + 1),
    );
    expect(text).toContain(`Page ${pages} of ${pages} of the certificate`);
    expectCleanLayout(long);
  });

  it("long names, user agents, subjects and values are wrapped or shortened, never clipped", async () => {
    const longUa = `${UA} Edg/131.0.0.0 SomeEnterpriseProxy/4.2 (compatible; +https://proxy.example.com/about) `.repeat(
      4,
    );
    const name =
      "Αλέξανδρος Παπαδόπουλος-Καραγιαννόπουλος και Дмитрий Дмитриевич Шостакович von und zu Hohenzollern-Sigmaringen";
    const trail: AuditEntry[] = [
      { type: "ready", timestamp: "2026-11-21T09:00:00Z" },
      {
        type: "a_very_long_event_type_name_that_does_not_fit_in_its_column",
        timestamp: "2026-11-21T09:00:01Z",
        data: { fieldId: "an_extremely_long_field_identifier_for_testing", value: "x".repeat(500) },
      },
      {
        type: "field_change",
        timestamp: "2026-11-21T09:00:02Z",
        data: { fieldId: "bidi", value: "abc\u202Efdp.exe\nsecond line\ttab" },
      },
      { type: "field_change", timestamp: "2026-11-21T23:59:59Z", data: { fieldId: "night", value: 1 } },
      { type: "field_change", timestamp: "2026-11-22T00:00:05Z", data: { fieldId: "night", value: 2 } },
      { type: "note", timestamp: "2026-11-22T00:00:06Z", data: "中文 and emoji 🎉" },
      { type: "submit", timestamp: "2026-11-22T00:01:00Z" },
    ];
    const pdf = await renderCertificatePages(
      baseInput(trail, {
        signer: {
          name,
          email: `${"very.long.local.part.".repeat(8)}x@${"sub.".repeat(10)}example.org`,
          ip: "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
          userAgent: longUa,
        },
        eventId: `evt_${"0123456789abcdef".repeat(8)}`,
        certificate: {
          subject: `CN=${"Very Long Common Name ".repeat(10)}, O=Org, C=NL`,
          issuer: "CN=Issuer",
          sha256: CERT_SHA,
        },
        reference:
          "Master services agreement between Analytical Engines Ltd and Signet B.V., including annexes A–F and all later amendments",
        level: "B-T",
      }),
      fonts,
    );
    const path = save("long-values.pdf", pdf);
    expectCleanLayout(path);
    const flat = squash(pdftotext(path, "-layout"));
    expect(flat).toContain("Αλέξανδρος Παπαδόπουλος-Καραγιαννόπουλος");
    expect(flat).toContain("…");
    expect(flat).toContain("PAdES baseline B-T");
    expect(flat).toContain("2001:0db8:85a3:0000:0000:8a2e:0370:7334");
    expect(flat).toContain("abcfdp.exe second line tab"); // bidi override dropped, controls as spaces
    expect(flat).toMatch(/23:59:59–00:00:05 \+1d/);
    expect(flat).toContain("\ufffd"); // glyphs the font lacks are shown as U+FFFD
    expect(pageCount(path)).toBe(1);
  });

  it("says what the QR code carries: address, reference or hash", async () => {
    const cases: [string, RegExp][] = [
      ["https://sign.example.com/verify#ref=0123456789abcdef0123456789abcdef", /carries the verification address/],
      ["0123456789abcdef0123456789abcdef", /carries the evidence reference/],
      [DOC_SHA, /carries the document's SHA-256/],
    ];
    for (const [qrPayload, caption] of cases) {
      const path = save(
        `qr-caption-${caption.source.length}.pdf`,
        await renderCertificatePages(baseInput(realisticTrail(5), { qrPayload }), fonts),
      );
      expect(squash(pdftotext(path))).toMatch(caption);
    }
  });

  it("rejects an invalid signing time and an oversized QR payload", async () => {
    const trail = realisticTrail(10);
    await expect(renderCertificatePages(baseInput(trail, { signedAt: new Date(Number.NaN) }), fonts)).rejects.toThrow(
      RangeError,
    );
    await expect(
      renderCertificatePages(baseInput(trail, { qrPayload: "x".repeat(QR_MAX_BYTES + 1) }), fonts),
    ).rejects.toThrow(RangeError);
  });
});

describe("QR encoder", () => {
  it("decodes with zbar at every version 1–10 (byte mode, level M)", () => {
    const capacities = [14, 26, 42, 62, 84, 106, 122, 152, 180, 213];
    for (const [i, cap] of capacities.entries()) {
      for (const length of [cap, i === 0 ? 1 : capacities[i - 1]! + 1]) {
        const payload = `https://verify.example/${"abcdefghij0123456789".repeat(11)}`.slice(0, length);
        const { version, size, modules } = encodeQr(payload);
        expect(version, `length ${length}`).toBe(i + 1);
        const scale = 4;
        const quiet = 4;
        const n = (size + 2 * quiet) * scale;
        const rows: string[] = [];
        for (let y = 0; y < n; y++) {
          let row = "";
          for (let x = 0; x < n; x++) {
            const mx = Math.floor(x / scale) - quiet;
            const my = Math.floor(y / scale) - quiet;
            row += mx >= 0 && my >= 0 && mx < size && my < size && modules[my]![mx] ? "1" : "0";
          }
          rows.push(row);
        }
        const file = join(dir, `qr-${length}.pbm`);
        writeFileSync(file, `P1\n${n} ${n}\n${rows.join("\n")}\n`);
        const decoded = zbar(file).replace(/\n$/, "");
        expect(decoded, `version ${version}, ${length} bytes`).toBe(payload);
      }
    }
    expect(() => encodeQr("x".repeat(QR_MAX_BYTES + 1))).toThrow(RangeError);
  });

  it("encodes UTF-8 text", () => {
    const { size, modules } = encodeQr("Дмитрий Αλέξανδρος");
    const file = join(dir, "qr-utf8.pbm");
    const px = (size + 8) * 4;
    const rows = Array.from({ length: px }, (_, y) =>
      Array.from({ length: px }, (_, x) => {
        const mx = Math.floor(x / 4) - 4;
        const my = Math.floor(y / 4) - 4;
        return mx >= 0 && my >= 0 && mx < size && my < size && modules[my]![mx] ? "1" : "0";
      }).join(""),
    );
    writeFileSync(file, `P1\n${px} ${px}\n${rows.join("\n")}\n`);
    expect(zbar(file).trim()).toBe("Дмитрий Αλέξανδρος");
  });
});
