/**
 * A test PKI with real revocation services, built with the openssl command line (Node side):
 *
 *   Root CA ─┬─ Intermediate CA ─┬─ OCSP responder (id-kp-OCSPSigning, ocsp-nocheck)
 *            │                   ├─ signer "good", "revoked" (revoked at set-up), "expired" (2020),
 *            │                   │  "revocable" (revoked by a test, through `revoke`)
 *            │                   └─ TSA (id-kp-timeStamping, critical)
 *            └─ root CRL (covers the intermediate)
 *
 * End-entity certificates carry an AIA OCSP address (the `openssl ocsp` responder this
 * module starts on loopback) and a CRL distribution point (the intermediate's CRL); the
 * intermediate carries only a CRL distribution point (the root's CRL). CRLs are written to
 * `crlDir`, which the URL fixture server serves under `/crl/` (url-fixtures.ts).
 *
 * `openssl ocsp` re-reads its index only between requests and by whole-second mtimes, so
 * `revoke` touches the index with a fresh mtime and sends the responder one throwaway
 * request before it returns.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type SignerName = "good" | "revoked" | "expired" | "revocable";

export interface PkiIdentity {
  /** PKCS#8 PEM private key. */
  keyPem: string;
  /** The certificate alone (PEM). */
  certPem: string;
  /** Certificate, intermediate, root (PEM): what SIGNING_CERT takes. */
  chainPem: string;
}

/** What global-setup hands to tests (JSON-serialisable). */
export interface RevocationPkiInfo {
  dir: string;
  rootPem: string;
  intermediatePem: string;
  ocspResponderPem: string;
  ocspUrl: string;
  rootCrlUrl: string;
  intermediateCrlUrl: string;
  signers: Record<SignerName, PkiIdentity>;
  tsa: PkiIdentity;
}

export interface RevocationPki extends RevocationPkiInfo {
  /** Revokes a signer now (index, CRL and the OCSP responder's view). */
  revoke(name: SignerName): Promise<void>;
  close(): Promise<void>;
}

const CA_CONFIG = `
[ca]
default_ca = ca_default
[ca_default]
dir = .
database = $dir/index.txt
new_certs_dir = $dir/issued
serial = $dir/serial
crlnumber = $dir/crlnumber
default_md = sha256
policy = policy_any
unique_subject = no
copy_extensions = none
default_days = 730
default_crl_days = 30
[policy_any]
commonName = supplied
organizationName = optional
[intermediate]
basicConstraints = critical,CA:TRUE,pathlen:0
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
crlDistributionPoints = URI:\${ENV::ROOT_CRL_URL}
[ocsp_responder]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = critical,OCSPSigning
noCheck = ignored
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[signer]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature,nonRepudiation
extendedKeyUsage = emailProtection
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
authorityInfoAccess = OCSP;URI:\${ENV::OCSP_URL},caIssuers;URI:\${ENV::INTERMEDIATE_CERT_URL}
crlDistributionPoints = URI:\${ENV::INTERMEDIATE_CRL_URL}
[tsa]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature,nonRepudiation
extendedKeyUsage = critical,timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
authorityInfoAccess = OCSP;URI:\${ENV::OCSP_URL}
crlDistributionPoints = URI:\${ENV::INTERMEDIATE_CRL_URL}
`;

function openssl(args: string[], cwd: string, env: Record<string, string> = {}): string {
  return execFileSync("openssl", args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function newKey(dir: string, name: string): string {
  const path = join(dir, `${name}.key`);
  openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path], dir);
  return path;
}

function initCa(dir: string): void {
  mkdirSync(join(dir, "issued"), { recursive: true });
  writeFileSync(join(dir, "index.txt"), "");
  writeFileSync(join(dir, "serial"), `${(0x1000 + Math.floor(Math.random() * 0xefff)).toString(16)}\n`);
  writeFileSync(join(dir, "crlnumber"), "01\n");
  writeFileSync(join(dir, "ca.cnf"), CA_CONFIG);
}

/** Starts `openssl ocsp` on an automatically chosen port; resolves with the port. */
function startResponder(caDir: string, args: string[]): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn("openssl", ["ocsp", "-port", "0", ...args], { cwd: caDir, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /ACCEPT .*:(\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`openssl ocsp exited (${code}): ${out}`)));
    setTimeout(() => reject(new Error(`openssl ocsp did not start: ${out}`)), 10_000).unref();
  });
}

export async function startRevocationPki(opts: { fixtureBaseUrl: string; crlDir: string }): Promise<RevocationPki> {
  const dir = mkdtempSync(join(tmpdir(), "signet-pki-"));
  const rootDir = join(dir, "root");
  const intDir = join(dir, "intermediate");
  initCa(rootDir);
  initCa(intDir);
  const rootCrlUrl = `${opts.fixtureBaseUrl}/crl/root.crl`;
  const intermediateCrlUrl = `${opts.fixtureBaseUrl}/crl/intermediate.crl`;
  // Every `openssl ca` run reads these (the config refers to them).
  let env: Record<string, string> = {
    ROOT_CRL_URL: rootCrlUrl,
    INTERMEDIATE_CRL_URL: intermediateCrlUrl,
    INTERMEDIATE_CERT_URL: `${opts.fixtureBaseUrl}/crl/intermediate.cer`,
    OCSP_URL: "http://127.0.0.1:1/", // replaced once the responder has a port
  };

  // Root (self-signed) and intermediate.
  const rootKey = newKey(rootDir, "root");
  openssl(
    [
      "req",
      "-x509",
      "-new",
      "-key",
      rootKey,
      "-out",
      "root.pem",
      "-days",
      "3650",
      "-subj",
      "/O=Signet tests/CN=Signet Test Revocation Root",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    ],
    rootDir,
  );
  const intKey = newKey(intDir, "intermediate");
  openssl(
    [
      "req",
      "-new",
      "-key",
      intKey,
      "-out",
      "intermediate.csr",
      "-subj",
      "/O=Signet tests/CN=Signet Test Intermediate CA",
    ],
    intDir,
  );
  openssl(
    [
      "ca",
      "-batch",
      "-config",
      "ca.cnf",
      "-cert",
      "root.pem",
      "-keyfile",
      rootKey,
      "-in",
      join(intDir, "intermediate.csr"),
      "-out",
      join(intDir, "intermediate.pem"),
      "-extensions",
      "intermediate",
      "-days",
      "3000",
      "-notext",
    ],
    rootDir,
    env,
  );

  const issue = (name: string, extensions: string, extra: string[] = []): PkiIdentity => {
    const key = newKey(intDir, name);
    const csr = join(intDir, `${name}.csr`);
    openssl(["req", "-new", "-key", key, "-out", csr, "-subj", `/O=Signet tests/CN=Signet Test ${name}`], intDir);
    const cert = join(intDir, `${name}.pem`);
    openssl(
      [
        "ca",
        "-batch",
        "-config",
        "ca.cnf",
        "-cert",
        "intermediate.pem",
        "-keyfile",
        intKey,
        "-in",
        csr,
        "-out",
        cert,
        "-extensions",
        extensions,
        "-notext",
        ...extra,
      ],
      intDir,
      env,
    );
    const certPem = readFileSync(cert, "utf8");
    return {
      keyPem: readFileSync(key, "utf8"),
      certPem,
      chainPem:
        certPem +
        readFileSync(join(intDir, "intermediate.pem"), "utf8") +
        readFileSync(join(rootDir, "root.pem"), "utf8"),
    };
  };

  // The responder's own certificate first (it needs no OCSP address), then start it.
  issue("ocsp-responder", "ocsp_responder");
  const { child, port } = await startResponder(intDir, [
    "-index",
    "index.txt",
    "-CA",
    "intermediate.pem",
    "-rsigner",
    "ocsp-responder.pem",
    "-rkey",
    "ocsp-responder.key",
    "-ndays",
    "7",
  ]);
  const ocspUrl = `http://127.0.0.1:${port}`;
  env = { ...env, OCSP_URL: ocspUrl };

  const signers: Record<SignerName, PkiIdentity> = {
    good: issue("good", "signer"),
    revoked: issue("revoked", "signer"),
    expired: issue("expired", "signer", ["-startdate", "20200101000000Z", "-enddate", "20210101000000Z"]),
    revocable: issue("revocable", "signer"),
  };
  const tsa = issue("tsa", "tsa");

  const writeCrls = () => {
    openssl(
      ["ca", "-gencrl", "-config", "ca.cnf", "-cert", "root.pem", "-keyfile", rootKey, "-out", "root.crl.pem"],
      rootDir,
      env,
    );
    openssl(
      [
        "ca",
        "-gencrl",
        "-config",
        "ca.cnf",
        "-cert",
        "intermediate.pem",
        "-keyfile",
        intKey,
        "-out",
        "intermediate.crl.pem",
      ],
      intDir,
      env,
    );
    openssl(
      ["crl", "-in", join(rootDir, "root.crl.pem"), "-outform", "DER", "-out", join(opts.crlDir, "root.crl")],
      rootDir,
    );
    openssl(
      [
        "crl",
        "-in",
        join(intDir, "intermediate.crl.pem"),
        "-outform",
        "DER",
        "-out",
        join(opts.crlDir, "intermediate.crl"),
      ],
      intDir,
    );
    openssl(
      [
        "x509",
        "-in",
        join(intDir, "intermediate.pem"),
        "-outform",
        "DER",
        "-out",
        join(opts.crlDir, "intermediate.cer"),
      ],
      intDir,
    );
  };

  let bump = 0;
  const revoke = async (name: SignerName) => {
    openssl(
      [
        "ca",
        "-config",
        "ca.cnf",
        "-cert",
        "intermediate.pem",
        "-keyfile",
        intKey,
        "-revoke",
        `${name}.pem`,
        "-crl_reason",
        "keyCompromise",
      ],
      intDir,
      env,
    );
    writeCrls();
    // A distinct whole-second mtime, then one request so the responder's loop re-reads the index.
    const t = Date.now() / 1000 + 10 + ++bump;
    utimesSync(join(intDir, "index.txt"), t, t);
    execFileSync("openssl", ["ocsp", "-issuer", "intermediate.pem", "-serial", "0x1", "-url", ocspUrl, "-noverify"], {
      cwd: intDir,
      stdio: "ignore",
      timeout: 10_000,
    });
  };

  await revoke("revoked");

  return {
    dir,
    rootPem: readFileSync(join(rootDir, "root.pem"), "utf8"),
    intermediatePem: readFileSync(join(intDir, "intermediate.pem"), "utf8"),
    ocspResponderPem: readFileSync(join(intDir, "ocsp-responder.pem"), "utf8"),
    ocspUrl,
    rootCrlUrl,
    intermediateCrlUrl,
    signers,
    tsa,
    revoke,
    close: async () => {
      child.kill("SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
