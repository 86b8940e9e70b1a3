// The API reference (GET /docs) in a real browser: Debian's Chromium driven by playwright-core,
// against `wrangler dev`. The page must load with no request leaving the service (Scalar's script
// is served by Signet, no CDN, no web fonts), list every operation of /openapi.json, and a
// "try it" call to /v1/health must show the service's answer. Screenshots go to a temp directory
// (printed).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService } from "./support/service";

const CHROMIUM = "/usr/bin/chromium";
if (!existsSync(CHROMIUM)) {
  if (process.env.CI) throw new Error(`${CHROMIUM} missing in CI: .ci/run installs chromium`);
  console.warn(`SKIPPED docs page browser tests: ${CHROMIUM} is not installed (apt-get install -y chromium)`);
}
const browserDescribe = existsSync(CHROMIUM) ? describe : describe.skip;

const shots = mkdtempSync(join(tmpdir(), "signet-docs-page-"));
let svc: RunningService;
let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) return;
  svc = await startService();
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
    viewport: { width: 1280, height: 900 },
    locale: "en-GB",
    timezoneId: "UTC",
  });
  console.log(`docs page screenshots: ${shots}`);
}, 240_000);

afterAll(async () => {
  await context?.close();
  await svc?.stop();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** Opens /docs, recording every request the page makes and every CSP violation or page error. */
async function openDocs(): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy|Refused to/i.test(m.text())) errors.push(m.text());
  });
  await page.goto(`${svc.baseUrl}/docs`, { waitUntil: "networkidle" });
  return { page, requests, errors };
}

browserDescribe("GET /docs in Chromium", () => {
  it("loads Scalar's reference from the service alone and lists every operation", async () => {
    const { page, requests, errors } = await openDocs();
    const spec = (await (await fetch(`${svc.baseUrl}/openapi.json`)).json()) as any;
    const summaries: string[] = Object.values(spec.paths).flatMap((item: any) =>
      Object.values(item).map((op: any) => op.summary as string),
    );
    // sign, annotate, convert, fields, verify, verify/key, the two evidence lookups, health.
    expect(summaries.length).toBeGreaterThanOrEqual(9);
    const text = await page.locator("body").innerText();
    for (const s of summaries) expect(text, s).toContain(s);
    await page.screenshot({ path: join(shots, "docs.png"), fullPage: false });
    const origin = new URL(svc.baseUrl).origin;
    const outside = requests.filter(
      (u) => !u.startsWith("data:") && !u.startsWith("blob:") && new URL(u).origin !== origin,
    );
    expect(outside).toEqual([]);
    expect(requests).toContain(`${origin}/docs/scalar.js`);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it("tries GET /v1/health against the running service and shows its answer", async () => {
    const { page, requests, errors } = await openDocs();
    // The health operation's section, then its "Test Request" button, then Send.
    await page.getByText("Health check (SuperDoc's shape)").first().click();
    const tryIt = page.getByRole("button", { name: /test request/i }).first();
    await tryIt.waitFor({ timeout: 30_000 });
    await tryIt.click();
    const send = page.getByRole("button", { name: /^send/i }).first();
    await send.waitFor({ timeout: 30_000 });
    const answered = page.waitForResponse(
      (r) => r.url() === `${svc.baseUrl}/v1/health` && r.request().method() === "GET",
      { timeout: 30_000 },
    );
    await send.click();
    expect((await answered).status()).toBe(200);
    await page.getByText('"healthy"', { exact: false }).first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: join(shots, "try-health.png") });
    const origin = new URL(svc.baseUrl).origin;
    expect(
      requests.filter((u) => !u.startsWith("data:") && !u.startsWith("blob:") && new URL(u).origin !== origin),
    ).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
