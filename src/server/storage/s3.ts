import { assertSafeKey, type FileStorage, isSafeKey, keyUnder } from "#server/storage/storage";

export type S3StorageConfig = {
  bucket: string;
  region: string;
  /** An S3-compatible server's address (MinIO, R2, s3rver in tests); unset means AWS itself. */
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Where the bucket's objects are publicly readable (a CDN or the bucket's website address). */
  publicBaseUrl: string;
  forcePathStyle: boolean;
};

/** Keys are random per upload and never rewritten, so browsers and CDNs may keep them for a year. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/** Files in an S3-compatible bucket, served from `publicBaseUrl`. */
export function s3Storage(config: S3StorageConfig): FileStorage {
  // The SDK takes a third of a second to load: only installs that keep files in a bucket load it, and
  // while the rest of the server starts.
  const sdk = import("@aws-sdk/client-s3");
  const connected = sdk.then(
    ({ S3Client }) =>
      new S3Client({
        region: config.region,
        endpoint: config.endpoint,
        forcePathStyle: config.forcePathStyle,
        credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
        // Many S3-compatible servers reject the newer default checksum headers; S3 itself doesn't need them.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      }),
  );
  // A failed load is reported by the first use, not as an unhandled rejection at start.
  connected.catch(() => undefined);
  const base = config.publicBaseUrl.replace(/\/+$/, "");
  const Bucket = config.bucket;
  return {
    driver: "s3",
    async put(key, body, contentType) {
      const [{ PutObjectCommand }, client] = await Promise.all([sdk, connected]);
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: assertSafeKey(key),
          Body: body,
          ContentType: contentType,
          CacheControl: IMMUTABLE,
        }),
      );
      return `${base}/${key}`;
    },
    async remove(key) {
      const [{ DeleteObjectCommand }, client] = await Promise.all([sdk, connected]);
      await client.send(new DeleteObjectCommand({ Bucket, Key: assertSafeKey(key) }));
    },
    async get(key) {
      const [{ GetObjectCommand }, client] = await Promise.all([sdk, connected]);
      const object = await client.send(new GetObjectCommand({ Bucket, Key: assertSafeKey(key) }));
      if (!object.Body) throw new Error(`Empty object: ${key}`);
      return Buffer.from(await object.Body.transformToByteArray());
    },
    async *list() {
      const [{ ListObjectsV2Command }, client] = await Promise.all([sdk, connected]);
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          // Objects someone else put in the bucket by hand are not ours to back up or move.
          if (object.Key && isSafeKey(object.Key)) yield object.Key;
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    keyOf: (url) => keyUnder(base, url),
  };
}
