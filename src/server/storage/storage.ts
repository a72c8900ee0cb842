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
};

const SAFE_KEY = /^[a-z0-9-]+(\/[a-z0-9-]+)*\.[a-z0-9]+$/;

export function localStorage(uploadsDir: string): FileStorage {
  const resolve = (key: string) => {
    // Keys are made by the server; this refuses anything else rather than trusting callers forever.
    if (!SAFE_KEY.test(key)) throw new Error(`Unsafe storage key: ${key}`);
    return path.join(uploadsDir, key);
  };
  return {
    driver: "local",
    async put(key, body) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, body, { flag: "wx" });
      return `/uploads/${key}`;
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
  };
}
