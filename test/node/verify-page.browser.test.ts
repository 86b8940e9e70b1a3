// The verification page (GET /verify) in a real browser: Debian's Chromium driven by
// playwright-core, against `wrangler dev`. A person drops a Signet-signed PDF, a tampered
// one and a PNG; opens the certificate page's QR link (#ref=...) and #sha256=... for
// known and unknown values. Every state is screenshotted (the directory is printed),
// checked with axe-core (no serious or critical violations), and the page must fit a
// 390 px wide phone. The QR code on the certificate page is decoded with zbarimg.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService } from "./support/service";

const CHROMIUM = "/usr/bin/chromium";
const CORPUS = new URL("../../../shared/corpus/pdf-plain/", import.meta.url).pathname;
const PUBLIC_BASE_URL = "https://signet.example.org";
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

if (!existsSync(CHROMIUM)) {
  if (process.env.CI) throw new Error(`${CHROMIUM} missing in CI: .ci/run installs chromium`);
  console.warn(`SKIPPED verify page browser tests: ${CHROMIUM} is not installed (apt-get install -y chromium)`);
}
const browserDescribe = existsSync(CHROMIUM) ? describe : describe.skip;

const shots = mkdtempSync(join(tmpdir(), "signet-verify-page-"));
const work = mkdtempSync(join(tmpdir(), "signet-verify-work-"));
let svc: RunningService;
let context: BrowserContext;
let profile: string;

// Ada signs (keystrokes, scrolls, two submits), then Grace signs the signed file.
const trail = [
  { type: "ready", timestamp: "2026-11-21T09:58:00Z" },
  ...Array.from("Ada Lovelace", (_, i) => ({
    type: "field_change",
    timestamp: `2026-11-21T09:58:${String(10 + i).padStart(2, "0")}Z`,
    data: { fieldId: "full_name", value: "Ada Lovelace".slice(0, i + 1) },
  })),
  ...[20, 45, 80, 100].map((percent, i) => ({
    type: "scroll",
    timestamp: `2026-11-21T09:59:0${i}Z`,
    data: { percent },
  })),
  { type: "field_change", timestamp: "2026-11-21T09:59:30Z", data: { fieldId: "agree", value: true } },
  { type: "submit", timestamp: "2026-11-21T10:00:00Z", data: {} },
  { type: "submit", timestamp: "2026-11-21T10:00:01Z", data: {} },
];

interface Signed {
  bytes: Buffer;
  reference: string;
  sha256: string;
  eventId: string;
}
let once: Signed;
let twice: Signed;

async function sign(pdf: Buffer, signer: { name: string; email: string }, eventId: string): Promise<Signed> {
  const res = await fetch(`${svc.baseUrl}/v1/sign`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${svc.apiKey}` },
    body: JSON.stringify({ document: { base64: pdf.toString("base64") }, signer, auditTrail: trail, eventId }),
  });
  const body = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`sign ${res.status}: ${JSON.stringify(body)}`);
  return {
    bytes: Buffer.from(body.document.base64.split(",")[1], "base64"),
    reference: body.reference,
    sha256: body.sha256,
    eventId,
  };
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) return;
  svc = await startService({ PUBLIC_BASE_URL });
  const input = readFileSync(join(CORPUS, "pdf20examples__Simple_PDF_2.0_file.pdf"));
  once = await sign(input, { name: "Ada Lovelace", email: "ada@example.com" }, "contract-42-ada");
  twice = await sign(once.bytes, { name: "Grace Hopper", email: "grace@example.com" }, "contract-42-grace");
  profile = mkdtempSync(join(tmpdir(), "signet-chromium-profile-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1100, height: 900 },
    locale: "en-GB",
    timezoneId: "UTC",
  });
  console.log(`verify page screenshots: ${shots}`);
}, 240_000);

afterAll(async () => {
  await context?.close();
  await svc?.stop();
  if (profile) rmSync(profile, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

/** A fresh page that records CSP violations and page errors. */
async function openPage(hash = "", width = 1100): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 900 });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error" && !/Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  await page.goto(`${svc.baseUrl}/verify${hash}`);
  return { page, errors };
}

/** Drops a file on the drop zone, as a person dragging it from their desktop. */
async function dropFile(page: Page, name: string, type: string, bytes: Buffer) {
  const dataTransfer = await page.evaluateHandle(
    ({ b64, name, type }) => {
      const bin = atob(b64);
      const u = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) u[i] = bin.charCodeAt(i);
      const dt = new DataTransfer();
      dt.items.add(new File([u], name, { type }));
      return dt;
    },
    { b64: bytes.toString("base64"), name, type },
  );
  await page.dispatchEvent("#drop", "dragenter", { dataTransfer });
  await page.dispatchEvent("#drop", "dragover", { dataTransfer });
  await page.dispatchEvent("#drop", "drop", { dataTransfer });
}

/** axe-core in the page (evaluated over DevTools, so the page's CSP stays in force): serious and critical findings. */
async function accessibilityProblems(page: Page): Promise<string[]> {
  await page.evaluate(axeSource + "\n;0");
  const result = await page.evaluate(async () => {
    const axe = (window as any).axe;
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n: any) => n.target.join(" ")).slice(0, 3),
    }));
  });
  return result
    .filter((v: any) => v.impact === "serious" || v.impact === "critical")
    .map((v: any) => `${v.id} (${v.impact}): ${v.nodes.join(", ")}`);
}

async function snapshot(page: Page, name: string) {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

async function fitsWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

async function verdictText(page: Page): Promise<string> {
  await page.waitForSelector("#verdict", { timeout: 60_000 });
  return (await page.textContent("#verdict")) ?? "";
}

browserDescribe("the certificate page leads to the verification page", () => {
  it("prints the reference and carries PUBLIC_BASE_URL/verify#ref=<reference> in its QR code", () => {
    expect(once.reference).toMatch(/^[0-9a-f]{32}$/);
    const pdf = join(work, "once.pdf");
    writeFileSync(pdf, once.bytes);
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [pdf], { encoding: "utf8" }))![1]);
    const text = execFileSync("pdftotext", ["-layout", "-f", String(pages), "-l", String(pages), pdf, "-"], {
      encoding: "utf8",
    });
    expect(text.replace(/\s+/g, "")).toContain(once.reference);
    execFileSync("pdftoppm", ["-r", "200", "-f", String(pages), "-l", String(pages), "-png", pdf, join(work, "cert")]);
    const png = execFileSync("sh", ["-c", `ls ${join(work, "cert")}*.png`], { encoding: "utf8" }).trim();
    const qr = execFileSync("zbarimg", ["-q", "--raw", "-Sdisable", "-Sqrcode.enable", png], {
      encoding: "utf8",
    }).trim();
    expect(qr).toBe(`${PUBLIC_BASE_URL}/verify#ref=${once.reference}`);
  });
});

browserDescribe("GET /verify in Chromium", () => {
  it("a Signet-signed PDF (two signers): valid verdict, one card per signer, the collapsed audit trail, document facts", async () => {
    const { page, errors } = await openPage();
    await snapshot(page, "01-empty");
    expect(await page.textContent("body")).toContain("Nothing is uploaded anywhere except to this service");
    expect(await accessibilityProblems(page)).toEqual([]);

    await dropFile(page, "contract-42.pdf", "application/pdf", twice.bytes);
    const verdict = await verdictText(page);
    expect(verdict).toContain("Valid: signed and not altered");
    expect(verdict).toContain("Ada Lovelace and Grace Hopper");
    expect(
      await page.locator("#verdict").evaluate((e) => e.classList.contains("ok") && getComputedStyle(e).backgroundColor),
    ).toBe("rgb(231, 244, 236)");
    const cards = page.locator("section.sig");
    expect(await cards.count()).toBe(2);
    expect(await cards.nth(0).textContent()).toContain("Ada Lovelace");
    expect(await cards.nth(0).textContent()).toContain("ada@example.com");
    expect(await cards.nth(1).textContent()).toContain("Grace Hopper");
    expect(await cards.nth(0).textContent()).toContain("Checks out");
    // Twelve keystrokes in one line, four scrolls in one line, both submits kept.
    const steps = await cards.nth(0).locator("ol.timeline > li").allTextContents();
    expect(steps.find((s) => s.includes("full_name"))).toMatch(
      /12 changes \(keystrokes\).*final value: “Ada Lovelace”/,
    );
    expect(steps.find((s) => s.includes("Scrolled"))).toMatch(/4 times.*reached 100%/);
    expect(steps.filter((s) => s.includes("Signed and submitted"))).toHaveLength(2);
    expect(steps).toHaveLength(6);
    const facts = (await page.textContent("#facts-h + dl")) ?? "";
    expect(facts).toContain(twice.sha256);
    expect(facts).toContain("This exact file was produced by this service");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("verdict");
    await snapshot(page, "02-valid-two-signers");
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(errors).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsWidth(page)).toBeLessThanOrEqual(390);
    await snapshot(page, "03-valid-phone-390");
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.close();
  });

  it("a tampered PDF: failure verdict in red with the reason", async () => {
    // One byte of the signed content changed (inside the first revision's binary comment line).
    const tampered = Buffer.from(once.bytes);
    const at = tampered.indexOf("\n%", 0) + 2;
    tampered[at] = tampered[at]! ^ 0x01;
    const report = (await (
      await fetch(`${svc.baseUrl}/v1/verify`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ document: { base64: tampered.toString("base64") } }),
      })
    ).json()) as any;
    expect(report.valid).toBe(false);

    const { page, errors } = await openPage();
    await dropFile(page, "contract-42.pdf", "application/pdf", tampered);
    const verdict = await verdictText(page);
    expect(verdict).toContain("Not valid: do not rely on this copy");
    expect(verdict).toContain(report.reason);
    expect(
      await page
        .locator("#verdict")
        .evaluate((e) => e.classList.contains("bad") && getComputedStyle(e).backgroundColor),
    ).toBe("rgb(252, 236, 234)");
    expect(await page.locator("section.sig").first().textContent()).toContain("Problem");
    expect((await page.textContent("#facts-h + dl")) ?? "").toContain("No record of this exact file");
    await snapshot(page, "04-tampered");
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a PNG: a clear error, nothing sent", async () => {
    const { page, errors } = await openPage("", 390);
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      "base64",
    );
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    // Picked with the file chooser this time.
    await page.setInputFiles("#file", { name: "scan.png", mimeType: "image/png", buffer: png });
    const verdict = await verdictText(page);
    expect(verdict).toContain("This is a PNG picture, not a PDF");
    expect(verdict).toContain("Choose the PDF file you received");
    expect(requests.filter((u) => u.includes("/v1/"))).toEqual([]);
    expect(await fitsWidth(page)).toBeLessThanOrEqual(390);
    await snapshot(page, "05-png-phone");
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("/verify#ref=<known> (the QR link): the record, then the same file and a later copy compared with it", async () => {
    const { page, errors } = await openPage(`#ref=${once.reference}`);
    await page.waitForSelector("#lookup-box");
    const record = (await page.textContent("#lookup")) ?? "";
    expect(record).toContain("This service signed a document under this reference");
    expect(record).toContain(once.sha256);
    expect(record).toContain("contract-42-ada");
    expect(record).toContain("drop it below");
    await snapshot(page, "06-ref-known");
    expect(await accessibilityProblems(page)).toEqual([]);

    await dropFile(page, "contract-42-from-ada.pdf", "application/pdf", once.bytes);
    await verdictText(page);
    expect(await page.textContent("#result")).toContain("Same file as the one recorded");
    await snapshot(page, "07-ref-known-same-file");

    await dropFile(page, "contract-42-final.pdf", "application/pdf", twice.bytes);
    await page.waitForFunction(() => document.getElementById("result")?.textContent?.includes("signed again later"));
    await snapshot(page, "08-ref-known-signed-again");
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(errors).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsWidth(page)).toBeLessThanOrEqual(390);
    await snapshot(page, "09-ref-phone-390");
    await page.close();
  });

  it("/verify#ref=<unknown> and a malformed reference: no record, said kindly", async () => {
    const { page, errors } = await openPage(`#ref=${"0f".repeat(16)}`, 390);
    await page.waitForSelector("#lookup-box");
    expect(await page.textContent("#lookup")).toContain("No record of this reference");
    expect(await fitsWidth(page)).toBeLessThanOrEqual(390);
    await snapshot(page, "10-ref-unknown-phone");
    expect(await accessibilityProblems(page)).toEqual([]);

    await page.evaluate(() => (location.hash = "#ref=not-a-reference"));
    await page.waitForFunction(() =>
      document.getElementById("lookup")?.textContent?.includes("not in the right format"),
    );
    await snapshot(page, "11-ref-malformed");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("/verify#sha256=<known> and <unknown>", async () => {
    const { page, errors } = await openPage(`#sha256=${twice.sha256}`);
    await page.waitForSelector("#lookup-box");
    const known = (await page.textContent("#lookup")) ?? "";
    expect(known).toContain("This service signed a document with this fingerprint");
    expect(known).toContain("contract-42-grace");
    await snapshot(page, "12-sha256-known");
    expect(await accessibilityProblems(page)).toEqual([]);

    const unknown = createHash("sha256").update("not a signed file").digest("hex");
    await page.goto(`${svc.baseUrl}/verify#sha256=${unknown}`);
    await page.waitForFunction(() =>
      document.getElementById("lookup")?.textContent?.includes("No record of this fingerprint"),
    );
    await snapshot(page, "13-sha256-unknown");
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("typing a reference in the form looks it up", async () => {
    const { page } = await openPage();
    await page.fill("#lookup-input", once.reference.toUpperCase());
    await page.click("#lookup-form button");
    await page.waitForSelector("#lookup-box");
    expect(page.url()).toContain(`#ref=${once.reference.toUpperCase()}`);
    expect(await page.textContent("#lookup")).toContain("This service signed a document under this reference");
    await page.close();
  });

  it("/ offers the verification page", async () => {
    const page = await context.newPage();
    await page.goto(`${svc.baseUrl}/`);
    await page.click("a[href='/verify']");
    await page.waitForSelector("#drop");
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.close();
  });
});
