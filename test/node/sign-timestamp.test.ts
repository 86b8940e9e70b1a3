import { readFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTsaServer, type TsaServer } from "../support/tsa-server";
import { startService, type RunningService } from "./support/service";
import { signatures, tool } from "./support/validators";

const CORPUS = new URL("../../../shared/corpus/", import.meta.url).pathname;
const PDF = readFileSync(join(CORPUS, "pdf-plain/pdf20examples__Simple_PDF_2.0_file.pdf"));
const work = mkdtempSync(join(tmpdir(), "signet-tsa-"));

let tsa: TsaServer;
const services: RunningService[] = [];
beforeAll(async () => {
  tsa = await startTsaServer();
}, 60_000);
afterAll(async () => {
  for (const s of services) await s.stop();
  await tsa?.close();
});

async function service(vars: Record<string, string>) {
  const svc = await startService(vars);
  services.push(svc);
  return svc;
}

async function sign(svc: RunningService) {
  const res = await fetch(`${svc.baseUrl}/v1/sign`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${svc.apiKey}` },
    body: JSON.stringify({
      document: { base64: PDF.toString("base64") },
      signer: { name: "Ada Lovelace", email: "ada@example.com" },
      auditTrail: [{ type: "submit", timestamp: "2026-11-21T10:00:00Z" }],
    }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe("PAdES B-T with TSA_URL", () => {
  it("adds an RFC 3161 signature time-stamp that openssl and pdfsig see", async () => {
    const svc = await service({ TSA_URL: tsa.url });
    const { status, body } = await sign(svc);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.signature.level).toBe("B-T");
    expect(body.signature.timestamp.serialNumber).toBeTruthy();
    expect(Math.abs(Date.parse(body.signature.timestamp.time) - Date.now())).toBeLessThan(120_000);
    const file = join(work, "bt.pdf");
    writeFileSync(file, Buffer.from(body.document.base64.split(",")[1], "base64"));
    const cms = join(work, "bt.p7s");
    writeFileSync(cms, signatures(readFileSync(file))[0]!.cms);
    const printed = await tool("openssl", ["cms", "-cmsout", "-print", "-inform", "DER", "-in", cms]);
    expect(printed.out).toMatch(/id-smime-aa-timeStampToken|signatureTimeStampToken/);
    const pdfsig = await tool("pdfsig", [file]);
    expect(pdfsig.out).toContain("Signature is Valid.");
  });

  it("a failing TSA is a 502 tsa_failed", async () => {
    const svc = await service({ TSA_URL: `${tsa.url}/500` });
    const { status, body } = await sign(svc);
    expect(status).toBe(502);
    expect(body.code).toBe("tsa_failed");
  });

  it("with TSA_OPTIONAL=true a failing TSA gives B-B and says so", async () => {
    const svc = await service({ TSA_URL: `${tsa.url}/fail`, TSA_OPTIONAL: "true" });
    const { status, body } = await sign(svc);
    expect(status).toBe(200);
    expect(body.signature.level).toBe("B-B");
    expect(body.signature.timestamp).toBeNull();
    expect(body.warnings.join(" ")).toMatch(/time-stamp/i);
  });
});
