import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Where uploaded files live. `local` writes under DATA_DIR/uploads, served at /uploads/; an
 * S3-compatible driver implements the same members and returns its bucket's public URLs.
 */
export type FileStorage = {
  readonly driver: "local" | "s3";
  /** Stores `body` under `key` (server-generated, e.g. `products/<uuid>.webp`) and returns its public URL. */
  put(key: string, body: Buffer, contentType: string): Promise<string>;
  remove(key: string): Promise<void>;
  /** The stored bytes of `key` (used by backups and by moving files between drivers). */
  get(key: string): Promise<Buffer>;
  /** Every stored key, in no particular order (used by backups and by moving files between drivers). */
  list(): AsyncIterable<string>;
  /**
   * The key behind `url` when it is one of this storage's public URLs (as `put` returned it), null for
   * any other address: how the server tells its own uploads from pictures elsewhere, on either driver.
   */
  keyOf(url: string): string | null;
};

const SAFE_KEY = /^[a-z0-9-]+(\/[a-z0-9-]+)*\.[a-z0-9]+$/;

/** Keys are made by the server; this refuses anything else rather than trusting callers forever. */
export function assertSafeKey(key: string): string {
  if (!SAFE_KEY.test(key)) throw new Error(`Unsafe storage key: ${key}`);
  return key;
}

export function isSafeKey(key: string): boolean {
  return SAFE_KEY.test(key);
}

/** The key of `url` if it is `${prefix}/<safe key>`, else null. */
export function keyUnder(prefix: string, url: string): string | null {
  if (!url.startsWith(`${prefix}/`)) return null;
  const key = url.slice(prefix.length + 1);
  return SAFE_KEY.test(key) ? key : null;
}

export const LOCAL_URL_PREFIX = "/uploads";

export function localStorage(uploadsDir: string): FileStorage {
  const resolve = (key: string) => path.join(uploadsDir, assertSafeKey(key));
  return {
    driver: "local",
    async put(key, body) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, body, { flag: "wx" });
      return `${LOCAL_URL_PREFIX}/${key}`;
    },
    async remove(key) {
      await rm(resolve(key), { force: true });
    },
    async get(key) {
      return readFile(resolve(key));
    },
    async *list() {
      let entries: string[];
      try {
        entries = await readdir(uploadsDir, { recursive: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
        throw error;
      }
      for (const entry of entries) {
        const key = entry.split(path.sep).join("/");
        if (SAFE_KEY.test(key)) yield key;
      }
    },
    keyOf: (url) => keyUnder(LOCAL_URL_PREFIX, url),
  };
}

const CONTENT_TYPES: Record<string, string> = {
  webp: "image/webp",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  avif: "image/avif",
  svg: "image/svg+xml",
  pdf: "application/pdf",
};

/** A stored file's type, from its key: keys are made by the server, so the extension names the type. */
export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[key.slice(key.lastIndexOf(".") + 1).toLowerCase()] ?? "application/octet-stream";
}
