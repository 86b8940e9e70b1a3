/**
 * PAdES B-LT and B-LTA through the real service (wrangler dev) with the test PKI of
 * global-setup (openssl ocsp responder, CRLs on the fixture server, the /tsa/ltv authority),
 * checked with tools that are not ours: openssl ocsp -respin, openssl crl -verify,
 * openssl ts -verify over the document time-stamp's byte range, pdfsig, mutool, qpdf.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pki, serviceFor, signWith, stopServices } from "./support/long-term";
import { nssDbTrusting, parsePdfsig, signatures, tool } from "./support/validators";

const work = mkdtempSync(join(tmpdir(), "signet-ltv-"));
afterAll(stopServices);
const service = serviceFor;

/** The DSS of a file as qpdf sees it: stream data of Certs/OCSPs/CRLs and the VRI keys. */
async function dssOf(file: string) {
  const out = await tool("qpdf", ["--json=2", "--json-stream-data=inline", "--decode-level=generalized", file]);
  const json = JSON.parse(out.out);
  const objects: Record<string, any> = json.qpdf[1];
  const obj = (ref: string) => objects[`obj:${ref}`];
  const trailer = objects.trailer.value;
  const catalog = obj(trailer["/Root"]).value;
  const dssRef = catalog["/DSS"];
  const dss = typeof dssRef === "string" ? obj(dssRef).value : dssRef;
  const streams = (key: string) => ((dss[key] ?? []) as string[]).map((r) => Buffer.from(obj(r).stream.data, "base64"));
  const vri = typeof dss["/VRI"] === "string" ? obj(dss["/VRI"]).value : dss["/VRI"];
  const vriEntry = (key: string) => {
    const v = vri?.[`/${key}`];
    return (typeof v === "string" ? obj(v).value : v) as Record<string, string[] | undefined>;
  };
  return {
    certs: streams("/Certs"),
    ocsps: streams("/OCSPs"),
    crls: streams("/CRLs"),
    vriKeys: Object.keys(vri ?? {}).map((k) => k.slice(1)),
    vriEntry,
    catalog,
  };
}

/** /Contents values (decoded, padding included) of the file's signature dictionaries, in file order. */
function contentsValues(pdf: Buffer): Buffer[] {
  const text = pdf.toString("latin1");
  return [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].map((m) => {
    const a = Number(m[2]);
    const c = Number(m[3]);
    return Buffer.from(text.slice(a + 1, c - 1), "hex");
  });
}

const files = {
  root: join(work, "root.pem"),
  intermediate: join(work, "intermediate.pem"),
  chain: join(work, "chain.pem"),
};
beforeAll(() => {
  writeFileSync(files.root, pki.rootPem);
  writeFileSync(files.intermediate, pki.intermediatePem);
  writeFileSync(files.chain, pki.intermediatePem + pki.rootPem);
});

describe("PAdES B-LTA signing", () => {
  let pdf: Buffer;
  let file: string;
  let body: any;

  beforeAll(async () => {
    const svc = await service("good");
    const r = await signWith(svc, "B-LTA");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    body = r.body;
    pdf = r.pdf!;
    file = join(work, "lta.pdf");
    writeFileSync(file, pdf);
  }, 180_000);

  it("answers level B-LTA with the signature and document time-stamps", () => {
    expect(body.signature.level).toBe("B-LTA");
    expect(body.signature.timestamp).not.toBeNull();
    expect(body.signature.documentTimestamp).not.toBeNull();
    expect(body.warnings).toEqual([]);
  });

  it("keys a VRI entry by the upper-case SHA-1 of each signature's /Contents", async () => {
    const dss = await dssOf(file);
    const [signature, docTimestamp] = contentsValues(pdf);
    expect(dss.vriKeys).toContain(createHash("sha1").update(signature!).digest("hex").toUpperCase());
    expect(dss.vriKeys).toContain(createHash("sha1").update(docTimestamp!).digest("hex").toUpperCase());
    // The signature's own entry names an OCSP response for the signer and one for the TSA, and the root's CRL.
    const entry = dss.vriEntry(createHash("sha1").update(signature!).digest("hex").toUpperCase());
    expect(entry["/OCSP"]).toHaveLength(2);
    expect(entry["/CRL"]).toHaveLength(1);
    expect(entry["/Cert"]!.length).toBeGreaterThanOrEqual(5);
  });

  it("holds OCSP responses that openssl ocsp -respin verifies against their responder and issuer", async () => {
    const dss = await dssOf(file);
    expect(dss.ocsps.length).toBeGreaterThanOrEqual(2); // the signer's and the TSA's
    const signer = join(work, "good.pem");
    writeFileSync(signer, pki.signers.good.certPem);
    const statuses: string[] = [];
    for (const [i, der] of dss.ocsps.entries()) {
      const resp = join(work, `ocsp-${i}.der`);
      writeFileSync(resp, der);
      const r = await tool("openssl", [
        "ocsp",
        "-respin",
        resp,
        "-issuer",
        files.intermediate,
        "-CAfile",
        files.root,
        "-verify_other",
        files.intermediate,
        "-resp_text",
      ]);
      expect(r.out, r.out).toContain("Response verify OK");
      statuses.push(...[...r.out.matchAll(/Cert Status: (\w+)/g)].map((m) => m[1]!));
    }
    expect(statuses.every((s) => s === "good")).toBe(true);
  });

  it("holds CRLs that openssl crl -verify accepts", async () => {
    const dss = await dssOf(file);
    expect(dss.crls.length).toBeGreaterThanOrEqual(1); // the root's, for the intermediate
    for (const [i, der] of dss.crls.entries()) {
      const crl = join(work, `crl-${i}.der`);
      writeFileSync(crl, der);
      const r = await tool("openssl", [
        "crl",
        "-inform",
        "DER",
        "-in",
        crl,
        "-CAfile",
        files.chain,
        "-noout",
        "-verify",
      ]);
      expect(r.out).toMatch(/verify OK/);
    }
  });

  it("holds every certificate of the signer's and the time-stamp authority's chains", async () => {
    const dss = await dssOf(file);
    const fingerprints = dss.certs.map((c) => createHash("sha256").update(c).digest("hex"));
    const der = (pem: string) => Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ""), "base64");
    for (const pem of [
      pki.signers.good.certPem,
      pki.intermediatePem,
      pki.rootPem,
      pki.tsa.certPem,
      pki.ocspResponderPem,
    ]) {
      expect(fingerprints).toContain(createHash("sha256").update(der(pem)).digest("hex"));
    }
  });

  it("has a document time-stamp that openssl ts -verify accepts over the file's byte range", async () => {
    const sigs = signatures(pdf);
    const last = sigs[sigs.length - 1]!;
    const data = join(work, "doc-ts-data.bin");
    const token = join(work, "doc-ts.tsr");
    writeFileSync(data, last.signed);
    writeFileSync(token, last.cms);
    const r = await tool("openssl", [
      "ts",
      "-verify",
      "-data",
      data,
      "-in",
      token,
      "-token_in",
      "-CAfile",
      files.root,
      "-untrusted",
      files.intermediate,
    ]);
    expect(r.out, r.out).toContain("Verification: OK");
    expect(pdf.toString("latin1")).toMatch(
      /\/Type \/DocTimeStamp \/Filter \/Adobe\.PPKLite \/SubFilter \/ETSI\.RFC3161/,
    );
  });

  it("is accepted by pdfsig, mutool sign -v and qpdf --check", async () => {
    const db = await nssDbTrusting(pki.rootPem);
    const pdfsig = parsePdfsig((await tool("pdfsig", ["-nssdir", db, file])).out);
    expect(pdfsig[0]!.validation).toBe("Signature is Valid.");
    // mutool checks the digest over the byte ranges (it has no trust store; it does not read
    // document time-stamps): the signature is valid, followed by the DSS and time-stamp updates.
    const mutool = await tool("mutool", ["sign", "-v", file]);
    const first = mutool.out.split(/^Verifying signature/m)[1]!;
    expect(first, mutool.out).toContain("The signature is valid but there have been edits since signing.");
    expect(mutool.out).not.toMatch(/Signature error|Digest error/i);
    const qpdf = await tool("qpdf", ["--check", file]);
    expect(qpdf.code, qpdf.out).toBe(0);
  });
});

describe("signature levels and what cannot be reached", () => {
  it("B-LT adds the DSS but no document time-stamp", async () => {
    const r = await signWith(await service("good"), "B-LT");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.signature.level).toBe("B-LT");
    expect(r.body.signature.documentTimestamp).toBeNull();
    expect(r.pdf!.toString("latin1")).not.toContain("/DocTimeStamp");
    expect(r.pdf!.toString("latin1")).toContain("/DSS");
  });

  it("SIGNATURE_LEVEL sets the deployment's default", async () => {
    const r = await signWith(await service("good", { SIGNATURE_LEVEL: "B-LT" }), undefined);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.signature.level).toBe("B-LT");
  });

  it("a signer whose certificate names no responder is a 502 revocation_unavailable", async () => {
    // The development identity of .dev.vars has no AIA and no CRL distribution point.
    const svc = await serviceFor("dev");
    const r = await signWith(svc, "B-LT");
    expect(r.status).toBe(502);
    expect(r.body.code).toBe("revocation_unavailable");
  });

  it("with REVOCATION_OPTIONAL=true the same request gives B-T and says why", async () => {
    const svc = await serviceFor("dev", { REVOCATION_OPTIONAL: "true" });
    const r = await signWith(svc, "B-LTA");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.signature.level).toBe("B-T");
    expect(r.body.warnings.join(" ")).toMatch(/validation data/i);
  });

  it("a level above B-B without a time-stamp authority is a 422 signature_level_unavailable", async () => {
    const svc = await serviceFor("dev", { TSA_URL: "" });
    const r = await signWith(svc, "B-LT");
    expect(r.status).toBe(422);
    expect(r.body.code).toBe("signature_level_unavailable");
  });
});
