import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
} from "node:crypto";
import type { LicenseKeySet } from "#domain/license-schemas";

/** A fresh Ed25519 private key as a PKCS#8 PEM, for a development DATA_DIR or a test app. */
export function newLicenseSigningKey(): string {
  return generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
}

/** Signs offline licence files with the platform's key and publishes its public half. */
export type LicenseSigner = {
  /** The key's id: the first 16 hex digits of the SHA-256 of its raw public key. */
  kid: string;
  /** The public key, as the well-known key set lists it. */
  keySet: LicenseKeySet;
  /** The Ed25519 signature of these exact bytes, in base64. */
  sign(bytes: Buffer): string;
};

/** `LICENSE_SIGNING_KEY` (a PKCS#8 PEM, or its DER in base64) read once at boot. */
export function licenseSigner(configured: string): LicenseSigner {
  const privateKey: KeyObject = configured.includes("-----BEGIN")
    ? createPrivateKey(configured)
    : createPrivateKey({ key: Buffer.from(configured.trim(), "base64"), format: "der", type: "pkcs8" });
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error("LICENSE_SIGNING_KEY must be Ed25519");
  const jwk = createPublicKey(privateKey).export({ format: "jwk" });
  const x = jwk.x ?? "";
  const kid = createHash("sha256").update(Buffer.from(x, "base64url")).digest("hex").slice(0, 16);
  return {
    kid,
    keySet: { keys: [{ kid, kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig", x }] },
    sign: (bytes) => sign(null, bytes, privateKey).toString("base64"),
  };
}
