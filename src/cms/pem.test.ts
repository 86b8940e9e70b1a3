import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors";
import { normalizePemText, parseCertificatesPem, parsePemBlocks, parsePrivateKeyPem, toPem } from "./pem";
import { testIdentity } from "../../test/support/signing-identities";

async function expectConfigError(fn: () => unknown, message: RegExp) {
  let error: unknown;
  try {
    await fn();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigurationError);
  expect((error as ConfigurationError).code).toBe("configuration_error");
  expect((error as Error).message).toMatch(message);
}

describe("PEM parsing", async () => {
  const { keyPem, certPem } = await testIdentity("RSA");
  const expectedCerts = parseCertificatesPem(certPem);

  const variants: Record<string, string> = {
    "real newlines": certPem,
    "literal \\n escapes": certPem.replace(/\n/g, "\\n"),
    "CRLF line ends": certPem.replace(/\n/g, "\r\n"),
    "literal \\r\\n escapes": certPem.replace(/\n/g, "\\r\\n"),
    "double-escaped \\\\n": certPem.replace(/\n/g, "\\\\n"),
    "surrounding double quotes and spaces": `  "${certPem.replace(/\n/g, "\\n")}"  `,
    "surrounding single quotes": `'${certPem}'`,
    "indented lines and blank lines": certPem
      .split("\n")
      .map((l) => `   ${l}   `)
      .join("\n\n"),
    "openssl text around blocks": `subject=CN = x\nissuer=CN = y\n${certPem}\nBag Attributes\n`,
    "byte order mark": `\uFEFF${certPem}`,
  };

  for (const [name, text] of Object.entries(variants)) {
    it(`reads a certificate chain with ${name}`, () => {
      const certs = parseCertificatesPem(text);
      expect(certs).toHaveLength(2);
      expect(certs).toEqual(expectedCerts);
    });
  }

  it("reads a PKCS#8 key with escapes and CRLF", () => {
    const plain = parsePrivateKeyPem(keyPem);
    expect(plain.format).toBe("pkcs8");
    expect(parsePrivateKeyPem(keyPem.replace(/\n/g, "\\n")).der).toEqual(plain.der);
    expect(parsePrivateKeyPem(`"${keyPem.replace(/\n/g, "\r\n")}"`).der).toEqual(plain.der);
  });

  it("recognises legacy PKCS#1 and SEC1 labels", () => {
    const der = parsePrivateKeyPem(keyPem).der;
    expect(parsePrivateKeyPem(toPem("RSA PRIVATE KEY", der)).format).toBe("pkcs1-rsa");
    expect(parsePrivateKeyPem(toPem("EC PRIVATE KEY", der)).format).toBe("sec1-ec");
  });

  it("normalizes without touching base64", () => {
    expect(normalizePemText('"a\\nb"')).toBe("a\nb");
    expect(normalizePemText("a\r\nb\rc")).toBe("a\nb\nc");
  });

  it("round-trips through toPem", () => {
    const [cert] = parseCertificatesPem(certPem);
    expect(parsePemBlocks(toPem("CERTIFICATE", cert!), "X")[0]!.der).toEqual(cert);
    expect(
      toPem("CERTIFICATE", cert!)
        .split("\n")
        .every((l) => l.length <= 64),
    ).toBe(true);
  });

  it("gives clear configuration errors", async () => {
    const block = certPem.split("-----END CERTIFICATE-----")[0]!;
    await expectConfigError(() => parseCertificatesPem(undefined), /SIGNING_CERT is not set/);
    await expectConfigError(() => parseCertificatesPem("   "), /SIGNING_CERT is not set/);
    await expectConfigError(() => parseCertificatesPem("hello world"), /holds no PEM block/);
    await expectConfigError(() => parseCertificatesPem(block), /has no END line/);
    await expectConfigError(
      () => parseCertificatesPem(`${block}-----END PRIVATE KEY-----`),
      /ends with "END PRIVATE KEY"/,
    );
    await expectConfigError(
      () => parseCertificatesPem("-----BEGIN CERTIFICATE-----\nnot*base64!\n-----END CERTIFICATE-----"),
      /does not hold valid base64/,
    );
    await expectConfigError(
      () => parseCertificatesPem("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----"),
      /is not a DER structure/,
    );
    await expectConfigError(() => parseCertificatesPem(keyPem), /holds a private key/);
    await expectConfigError(() => parsePrivateKeyPem(certPem), /exactly one private key/);
    await expectConfigError(
      () => parsePrivateKeyPem(certPem.split("-----END CERTIFICATE-----")[0] + "-----END CERTIFICATE-----"),
      /holds a certificate/,
    );
    await expectConfigError(
      () => parsePrivateKeyPem(keyPem.replace(/PRIVATE KEY/g, "ENCRYPTED PRIVATE KEY")),
      /encrypted private key/,
    );
    await expectConfigError(
      () =>
        parsePrivateKeyPem(
          keyPem
            .replace(/PRIVATE KEY/g, "RSA PRIVATE KEY")
            .replace("-----\n", "-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\n"),
        ),
      /encrypted legacy PEM/,
    );
  });

  it("never echoes secret content in errors", async () => {
    const secretish = "-----BEGIN PRIVATE KEY-----\nTOPSECRETTOPSECRET!!\n-----END PRIVATE KEY-----";
    try {
      parsePrivateKeyPem(secretish);
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).not.toContain("TOPSECRET");
    }
  });
});
