import path from "node:path";
import type { Env } from "#server/env";
import { s3Storage } from "#server/storage/s3";
import { type FileStorage, localStorage } from "#server/storage/storage";

/** The storage STORAGE_DRIVER names; `loadEnv` has already refused an s3 driver missing its settings. */
export function configuredStorage(env: Env): FileStorage {
  if (env.STORAGE_DRIVER === "local") return localStorage(localUploadsDir(env));
  const { S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_PUBLIC_BASE_URL } = env;
  if (!S3_BUCKET || !S3_ACCESS_KEY_ID || !S3_SECRET_ACCESS_KEY || !S3_PUBLIC_BASE_URL)
    throw new Error(
      "STORAGE_DRIVER=s3 needs S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and S3_PUBLIC_BASE_URL",
    );
  return s3Storage({
    bucket: S3_BUCKET,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    accessKeyId: S3_ACCESS_KEY_ID,
    secretAccessKey: S3_SECRET_ACCESS_KEY,
    publicBaseUrl: S3_PUBLIC_BASE_URL,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
  });
}

/** DATA_DIR/uploads: the local driver's files, and what `storage:move` copies into a bucket. */
export function localUploadsDir(env: Env): string {
  return path.resolve(env.DATA_DIR, "uploads");
}

/** The origin images are served from besides our own, for the Content-Security-Policy; null for local. */
export function storageImageOrigin(env: Env): string | null {
  return env.STORAGE_DRIVER === "s3" && env.S3_PUBLIC_BASE_URL
    ? new URL(env.S3_PUBLIC_BASE_URL).origin
    : null;
}
