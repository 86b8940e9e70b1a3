// Types for pki.mjs (development PKI), so TypeScript tests can import it.
import type * as pkijs from "pkijs";

export declare const OIDS: Record<string, string>;

export interface KeySpec {
  type?: "RSA" | "ECDSA";
  modulusLength?: number;
  namedCurve?: "P-256" | "P-384";
}
export declare function generateKeyPair(spec?: KeySpec): Promise<CryptoKeyPair>;
export declare function toPem(label: string, der: Uint8Array | ArrayBuffer): string;
export declare function exportPrivateKeyPem(privateKey: CryptoKey): Promise<string>;

export interface Issuer {
  certificate: pkijs.Certificate;
  privateKey: CryptoKey;
}
export interface IssueCertificateOptions {
  subject: { CN: string; O?: string; OU?: string; C?: string };
  publicKey: CryptoKey;
  issuer?: Issuer | null;
  privateKey?: CryptoKey;
  ca?: boolean;
  pathLength?: number;
  keyUsage: string[];
  extKeyUsage?: string[];
  extKeyUsageCritical?: boolean;
  notBefore?: Date;
  years?: number;
}
export declare function issueCertificate(opts: IssueCertificateOptions): Promise<pkijs.Certificate>;
export declare function certificateDer(cert: pkijs.Certificate): Uint8Array;
export declare function certificatePem(cert: pkijs.Certificate): string;

export interface RootCa extends Issuer {
  publicKey: CryptoKey;
  certificatePem: string;
}
export interface IssuedKey extends RootCa {
  privateKeyPem: string;
}
export declare function createRootCa(opts?: { keyType?: "RSA" | "ECDSA"; CN?: string; O?: string }): Promise<RootCa>;
export declare function createSigningCertificate(
  ca: Issuer,
  opts?: {
    keyType?: "RSA" | "ECDSA";
    namedCurve?: "P-256" | "P-384";
    modulusLength?: number;
    CN?: string;
    O?: string;
    years?: number;
    notBefore?: Date;
  },
): Promise<IssuedKey>;
export declare function createTsaCertificate(
  ca: Issuer,
  opts?: { keyType?: "RSA" | "ECDSA"; namedCurve?: "P-256" | "P-384"; CN?: string; O?: string },
): Promise<IssuedKey>;
export declare function createDevPki(opts?: {
  signerKeyType?: "RSA" | "ECDSA";
  namedCurve?: "P-256" | "P-384";
  caKeyType?: "RSA" | "ECDSA";
}): Promise<{
  ca: RootCa;
  signer: IssuedKey;
  caCertificatePem: string;
  signingKeyPem: string;
  signingCertPem: string;
}>;
