/**
 * What the tests know of the loopback KMS (test/support/kms-fixture.ts), and the Worker variables
 * that sign with one of its keys. No Node APIs: workerd tests import it too.
 */
export type KmsKeySpec = "RSA_2048" | "ECC_NIST_P256" | "ECC_NIST_P384";

export interface KmsFixtureKey {
  keyId: string;
  arn: string;
  keySpec: KmsKeySpec;
  /** The KMS key's certificate, then the test CA (SIGNING_CERT). */
  chainPem: string;
}

export interface KmsFixtureInfo {
  url: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The test CA that issued the keys' certificates (TRUSTED_ROOTS, pdfsig's NSS database, openssl -CAfile). */
  caPem: string;
  keys: {
    rsa: KmsFixtureKey;
    p256: KmsFixtureKey;
    p384: KmsFixtureKey;
    /** For failure tests: its behaviour is switched by tests (POST /__test/behaviour). */
    flaky: KmsFixtureKey;
    /** A second P-256 key: `wrong-key` answers with its signatures. */
    other: KmsFixtureKey;
  };
}

/** The Worker variables that make Signet sign with `key` through the loopback KMS. */
export function kmsVars(
  kms: KmsFixtureInfo,
  key: KmsFixtureKey,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    SIGNING_KMS: "aws",
    AWS_KMS_KEY_ID: key.arn,
    AWS_REGION: kms.region,
    AWS_KMS_ENDPOINT: kms.url,
    AWS_ACCESS_KEY_ID: kms.accessKeyId,
    AWS_SECRET_ACCESS_KEY: kms.secretAccessKey,
    SIGNING_CERT: key.chainPem,
    TRUSTED_ROOTS: kms.caPem,
    ...extra,
  };
}
