// Smoke test in workerd: the bundled fonts load as Data modules and pdfme
// renders the certificate page without Node APIs.
import { describe, expect, it } from "vitest";
import { PDFDocument } from "pdf-lib";
import { renderCertificatePages } from "./certificate-page";
import type { CertificateFonts } from "./types";

/**
 * The fonts are Data modules: this needs the wrangler rule
 * `[[rules]] type = "Data" globs = ["**\/*.ttf"]`. Without it the import fails
 * and the test is skipped (visibly), so the rest of the suite still runs.
 */
async function bundledFonts(): Promise<CertificateFonts | string> {
  try {
    const { loadCertificateFonts } = await import("./fonts");
    return loadCertificateFonts();
  } catch (error) {
    return `bundled fonts not loadable (wrangler [[rules]] Data for **/*.ttf missing?): ${String(error)}`;
  }
}

function trail(n: number) {
  const t0 = Date.UTC(2026, 10, 21, 9, 58, 0);
  const out: { type: string; timestamp: string; data?: unknown }[] = [
    { type: "ready", timestamp: new Date(t0).toISOString() },
  ];
  for (let i = 1; out.length < n - 1; i++) {
    out.push({
      type: "field_change",
      timestamp: new Date(t0 + i * 150).toISOString(),
      data: { fieldId: `f${Math.floor(i / 40)}`, value: "x".repeat(i % 40) },
    });
  }
  out.push({ type: "submit", timestamp: new Date(t0 + n * 200).toISOString() });
  return out;
}

describe("certificate page in workerd", () => {
  it("renders with the bundled fonts, appends with copyPages, is deterministic", async (ctx) => {
    const fonts = await bundledFonts();
    if (typeof fonts === "string") {
      console.warn(fonts);
      ctx.skip();
      return;
    }
    const input = {
      signer: {
        name: "Дмитрий Шостакович",
        email: "dmitri@example.org",
        ip: "203.0.113.7",
        userAgent: "Mozilla/5.0 (test)",
      },
      eventId: "evt_workerd_smoke",
      signedAt: new Date(Date.UTC(2026, 10, 21, 10, 0, 0)),
      documentSha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      certificate: {
        subject: "CN=Signet Dev Signing",
        issuer: "CN=Signet Dev CA",
        sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
      },
      auditTrail: trail(2000),
      qrPayload: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      level: "B-B" as const,
    };
    const started = Date.now();
    const pdf = await renderCertificatePages(input, fonts);
    const elapsed = Date.now() - started;
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-");
    const cert = await PDFDocument.load(pdf);
    expect(cert.getPageCount()).toBeGreaterThanOrEqual(1);

    const target = await PDFDocument.create();
    target.addPage();
    const copied = await target.copyPages(cert, cert.getPageIndices());
    for (const p of copied) target.addPage(p);
    expect(target.getPageCount()).toBe(1 + cert.getPageCount());

    const again = await renderCertificatePages(input, fonts);
    expect(again).toEqual(pdf);
    console.log(`workerd: ${cert.getPageCount()} page(s), ${pdf.length} bytes, ${elapsed} ms (first render)`);
  });
});
