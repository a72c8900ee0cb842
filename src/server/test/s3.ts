import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { S3StorageConfig } from "#server/storage/s3";

/** s3rver's built-in account: the only credentials it accepts. */
const S3RVER_KEY = "S3RVER";

/**
 * A local S3 server for one test file: s3rver (in a child process) on a free port, its objects in a temp directory, one empty
 * bucket. `env` holds the S3_* variables pointing at it (STORAGE_DRIVER=s3), `config` the driver's settings.
 */
export async function startS3rver(bucket = `test-${randomBytes(4).toString("hex")}`) {
  const directory = await mkdtemp(path.join(os.tmpdir(), "stackbay-s3rver-"));
  const child = fork(fileURLToPath(new URL("./s3rver-process.mjs", import.meta.url)), [directory, bucket], {
    execArgv: ["--openssl-legacy-provider"],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const message = await new Promise<{ port: number }>((resolve, reject) => {
    child.once("message", (m) => resolve(m as { port: number }));
    child.once("exit", (code) => reject(new Error(`s3rver exited with ${code} before listening`)));
  });
  const { port } = message;
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver serves objects at endpoint/bucket/key without signing, as a public bucket or CDN would.
  const publicBaseUrl = `${endpoint}/${bucket}`;
  const config: S3StorageConfig = {
    bucket,
    region: "us-east-1",
    endpoint,
    accessKeyId: S3RVER_KEY,
    secretAccessKey: S3RVER_KEY,
    publicBaseUrl,
    forcePathStyle: true,
  };
  const env = {
    STORAGE_DRIVER: "s3",
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint,
    S3_ACCESS_KEY_ID: S3RVER_KEY,
    S3_SECRET_ACCESS_KEY: S3RVER_KEY,
    S3_PUBLIC_BASE_URL: publicBaseUrl,
    S3_FORCE_PATH_STYLE: "true",
  };
  return {
    bucket,
    endpoint,
    publicBaseUrl,
    config,
    env,
    /** The object's bytes and headers as a browser would fetch them from the public URL. */
    fetchPublic: (key: string) => fetch(`${publicBaseUrl}/${key}`),
    close: async () => {
      const exited = once(child, "exit");
      child.disconnect();
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
}
