/**
 * PEM reading for secrets. Operators paste PEM into dashboards, `.dev.vars`, JSON and
 * shell variables, so the value may hold real newlines, literal `\n` escapes, CRLF,
 * surrounding quotes or stray whitespace; all of those are accepted. Error messages
 * name the setting and the problem, never the secret's content.
 */
import { ConfigurationError } from "../errors";
import { DerError, readDer } from "./der";

export interface PemBlock {
  /** The label, e.g. `CERTIFICATE` or `PRIVATE KEY`. */
  label: string;
  der: Uint8Array;
}

/** Undoes the usual ways a PEM value gets mangled on its way into an environment variable. */
export function normalizePemText(text: string): string {
  let s = text.replace(/^\uFEFF/, "").trim();
  // Surrounding quotes (possibly several layers, e.g. a JSON string inside a dotenv value).
  for (let i = 0; i < 3; i++) {
    const m = /^(["'])([\s\S]*)\1$/.exec(s);
    if (!m) break;
    s = m[2]!.trim();
  }
  // Literal escapes: `\r\n`, `\n`, `\r`, and doubly escaped `\\n`.
  s = s.replace(/\\+r\\+n|\\+n|\\+r/g, "\n");
  s = s.replace(/\r\n?/g, "\n");
  return s;
}

const BEGIN = /^-----BEGIN ([A-Z0-9 ]+)-----$/;
const END = /^-----END ([A-Z0-9 ]+)-----$/;

function decodeBase64(body: string, setting: string, label: string, index: number): Uint8Array {
  const compact = body.replace(/\s+/g, "");
  const where = `${setting}: PEM block #${index} (${label})`;
  if (compact.length === 0) throw new ConfigurationError(`${where} is empty.`);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 !== 0) {
    throw new ConfigurationError(`${where} does not hold valid base64.`);
  }
  let binary: string;
  try {
    binary = atob(compact);
  } catch {
    throw new ConfigurationError(`${where} does not hold valid base64.`);
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  try {
    readDer(out, 0, true);
  } catch (e) {
    throw new ConfigurationError(
      `${where} is not a DER structure (${e instanceof DerError ? e.message : "unreadable"}).`,
    );
  }
  return out;
}

/**
 * All PEM blocks of a value, in order. Text between blocks (e.g. `Bag Attributes` or
 * `subject=` lines that `openssl` prints) is ignored.
 */
export function parsePemBlocks(text: string | undefined | null, setting: string): PemBlock[] {
  if (text === undefined || text === null || text.trim() === "") {
    throw new ConfigurationError(`${setting} is not set.`);
  }
  const lines = normalizePemText(text)
    .split("\n")
    .map((l) => l.trim());
  const blocks: PemBlock[] = [];
  let current: { label: string; body: string[]; headers: boolean } | null = null;
  for (const line of lines) {
    if (current === null) {
      const m = BEGIN.exec(line);
      if (m) current = { label: m[1]!, body: [], headers: false };
      else if (END.test(line)) throw new ConfigurationError(`${setting}: found an END line without its BEGIN line.`);
      continue;
    }
    const end = END.exec(line);
    if (end) {
      if (end[1] !== current.label) {
        throw new ConfigurationError(`${setting}: PEM block "${current.label}" ends with "END ${end[1]}".`);
      }
      if (current.headers) {
        throw new ConfigurationError(
          `${setting}: PEM block "${current.label}" has headers (e.g. Proc-Type); encrypted legacy PEM is not supported, ` +
            `export an unencrypted PKCS#8 key (openssl pkcs8 -topk8 -nocrypt).`,
        );
      }
      blocks.push({
        label: current.label,
        der: decodeBase64(current.body.join(""), setting, current.label, blocks.length + 1),
      });
      current = null;
      continue;
    }
    if (BEGIN.test(line)) throw new ConfigurationError(`${setting}: PEM block "${current.label}" has no END line.`);
    if (/^[A-Za-z-]+:/.test(line)) current.headers = true;
    else current.body.push(line);
  }
  if (current) throw new ConfigurationError(`${setting}: PEM block "${current.label}" has no END line.`);
  if (blocks.length === 0) {
    throw new ConfigurationError(`${setting} holds no PEM block (expected lines like "-----BEGIN ...-----").`);
  }
  return blocks;
}

/** The DER certificates of a PEM chain (only CERTIFICATE blocks; at least one). */
export function parseCertificatesPem(text: string | undefined | null, setting = "SIGNING_CERT"): Uint8Array[] {
  const blocks = parsePemBlocks(text, setting);
  const certs: Uint8Array[] = [];
  for (const b of blocks) {
    if (b.label === "CERTIFICATE" || b.label === "X509 CERTIFICATE" || b.label === "TRUSTED CERTIFICATE") {
      certs.push(b.der);
    } else if (/PRIVATE KEY/.test(b.label)) {
      throw new ConfigurationError(
        `${setting} holds a private key; it must hold certificates only (the key goes in SIGNING_KEY).`,
      );
    } else {
      throw new ConfigurationError(`${setting}: unexpected PEM block "${b.label}" (expected CERTIFICATE).`);
    }
  }
  return certs;
}

export type PrivateKeyFormat = "pkcs8" | "pkcs1-rsa" | "sec1-ec";

/** The one private key of a PEM value. */
export function parsePrivateKeyPem(
  text: string | undefined | null,
  setting = "SIGNING_KEY",
): { der: Uint8Array; format: PrivateKeyFormat } {
  const blocks = parsePemBlocks(text, setting).filter((b) => b.label !== "EC PARAMETERS");
  if (blocks.length !== 1) {
    throw new ConfigurationError(`${setting} must hold exactly one private key PEM block (found ${blocks.length}).`);
  }
  const block = blocks[0]!;
  switch (block.label) {
    case "PRIVATE KEY":
      return { der: block.der, format: "pkcs8" };
    case "RSA PRIVATE KEY":
      return { der: block.der, format: "pkcs1-rsa" };
    case "EC PRIVATE KEY":
      return { der: block.der, format: "sec1-ec" };
    case "ENCRYPTED PRIVATE KEY":
      throw new ConfigurationError(
        `${setting} is an encrypted private key; Signet needs an unencrypted PKCS#8 key (openssl pkcs8 -topk8 -nocrypt). ` +
          `Keep it safe as a Worker secret.`,
      );
    case "CERTIFICATE":
      throw new ConfigurationError(
        `${setting} holds a certificate; it must hold the private key (the chain goes in SIGNING_CERT).`,
      );
    default:
      throw new ConfigurationError(`${setting}: unexpected PEM block "${block.label}" (expected PRIVATE KEY).`);
  }
}

function base64(der: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < der.length; i += 0x8000) binary += String.fromCharCode(...der.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** PEM text with 64-column lines and a trailing newline. */
export function toPem(label: string, der: Uint8Array): string {
  const b64 = base64(der);
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 64) lines.push(b64.slice(i, i + 64));
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}
