import { createHash } from "node:crypto";
import { type FileHandle, open } from "node:fs/promises";
import { Readable } from "node:stream";

/**
 * A minimal POSIX ustar writer and reader: backups are one file that `tar -tf` can list, and this keeps
 * production free of a tar dependency (the only one installed comes with a dev tool). Regular files only.
 */

const BLOCK = 512;
const CHUNK = 1 << 20;
/** ustar's size field holds 11 octal digits. */
const MAX_ENTRY_SIZE = 8 ** 11 - 1;

export class ArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ArchiveError";
  }
}

function splitName(name: string): { prefix: string; base: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: "", base: name };
  const cut = name.lastIndexOf("/", 155);
  const prefix = name.slice(0, cut);
  const base = name.slice(cut + 1);
  if (cut < 0 || Buffer.byteLength(prefix) > 155 || Buffer.byteLength(base) > 100)
    throw new ArchiveError(`Name too long for the archive: ${name}`);
  return { prefix, base };
}

function header(name: string, size: number, mtime: Date): Buffer {
  if (size > MAX_ENTRY_SIZE) throw new ArchiveError(`${name} is larger than a tar entry can hold (8 GiB).`);
  const block = Buffer.alloc(BLOCK);
  const { prefix, base } = splitName(name);
  const octal = (value: number, width: number) => value.toString(8).padStart(width - 1, "0");
  block.write(base, 0, 100, "utf8");
  block.write(octal(0o644, 8), 100, "ascii");
  block.write(octal(0, 8), 108, "ascii");
  block.write(octal(0, 8), 116, "ascii");
  block.write(octal(size, 12), 124, "ascii");
  block.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, "ascii");
  block.write("0", 156, "ascii");
  block.write("ustar\u000000", 257, "binary");
  block.write(prefix, 345, 155, "utf8");
  // The checksum is computed with its own field read as spaces.
  block.fill(0x20, 148, 156);
  block.write(`${octal(checksum(block), 7)}\u0000 `, 148, "binary");
  return block;
}

function checksum(block: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (block[i] as number);
  return sum;
}

const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

/** Appends entries to a new file; each `add` returns the sha256 of what it wrote. */
export class TarWriter {
  private position = 0;
  private constructor(private readonly file: FileHandle) {}

  static async create(path: string): Promise<TarWriter> {
    return new TarWriter(await open(path, "wx"));
  }

  private async write(data: Buffer) {
    await this.file.write(data, 0, data.length, this.position);
    this.position += data.length;
  }

  async add(name: string, body: Buffer, mtime = new Date()): Promise<string> {
    await this.write(header(name, body.length, mtime));
    await this.write(body);
    await this.write(Buffer.alloc(padding(body.length)));
    return createHash("sha256").update(body).digest("hex");
  }

  /** Copies a file in chunks, so a large database dump is never held in memory. */
  async addFile(name: string, path: string, mtime = new Date()): Promise<{ size: number; sha256: string }> {
    const source = await open(path, "r");
    try {
      const { size } = await source.stat();
      await this.write(header(name, size, mtime));
      const hash = createHash("sha256");
      const buffer = Buffer.alloc(CHUNK);
      let copied = 0;
      while (copied < size) {
        const { bytesRead } = await source.read(buffer, 0, Math.min(CHUNK, size - copied), copied);
        if (bytesRead === 0) throw new ArchiveError(`${path} shrank while it was being archived.`);
        const chunk = buffer.subarray(0, bytesRead);
        hash.update(chunk);
        await this.write(chunk);
        copied += bytesRead;
      }
      await this.write(Buffer.alloc(padding(size)));
      return { size, sha256: hash.digest("hex") };
    } finally {
      await source.close();
    }
  }

  /** Writes the end-of-archive marker and flushes the file to disk. */
  async finish(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
    await this.file.sync();
    await this.file.close();
  }

  async abandon(): Promise<void> {
    await this.file.close().catch(() => undefined);
  }
}

export type TarEntry = { name: string; offset: number; size: number };

/**
 * Reads an archive's table of contents, refusing it when a header is damaged, an entry runs past the end
 * of the file (a truncated copy) or the end-of-archive marker is missing.
 */
export class TarReader {
  private constructor(
    private readonly file: FileHandle,
    readonly entries: Map<string, TarEntry>,
  ) {}

  static async open(path: string): Promise<TarReader> {
    const file = await open(path, "r");
    try {
      const { size: fileSize } = await file.stat();
      const entries = new Map<string, TarEntry>();
      const block = Buffer.alloc(BLOCK);
      let position = 0;
      for (;;) {
        if (position + BLOCK > fileSize)
          throw new ArchiveError("The archive ends in the middle (truncated).");
        await file.read(block, 0, BLOCK, position);
        if (block.every((byte) => byte === 0)) break;
        const stored = Number.parseInt(block.toString("ascii", 148, 156).replace(/[\0 ]/g, ""), 8);
        if (stored !== checksum(block) || block.toString("binary", 257, 262) !== "ustar")
          throw new ArchiveError(`The archive is damaged (bad header at byte ${position}).`);
        const text = (start: number, length: number) =>
          block.toString("utf8", start, start + length).replace(/\0.*$/s, "");
        const prefix = text(345, 155);
        const name = prefix ? `${prefix}/${text(0, 100)}` : text(0, 100);
        const size = Number.parseInt(text(124, 12).trim() || "0", 8);
        const type = text(156, 1);
        position += BLOCK;
        if (position + size + padding(size) > fileSize)
          throw new ArchiveError("The archive ends in the middle (truncated).");
        if (type === "0" || type === "") entries.set(name, { name, offset: position, size });
        position += size + padding(size);
      }
      return new TarReader(file, entries);
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  async read(entry: TarEntry): Promise<Buffer<ArrayBuffer>> {
    const buffer = Buffer.alloc(entry.size);
    await this.file.read(buffer, 0, entry.size, entry.offset);
    return buffer;
  }

  /** Streams an entry through `onChunk` (hashing, copying to a file) without holding it whole. */
  async each(entry: TarEntry, onChunk: (chunk: Buffer) => Promise<void> | void): Promise<void> {
    const buffer = Buffer.alloc(Math.min(CHUNK, Math.max(entry.size, 1)));
    let done = 0;
    while (done < entry.size) {
      const { bytesRead } = await this.file.read(
        buffer,
        0,
        Math.min(buffer.length, entry.size - done),
        entry.offset + done,
      );
      if (bytesRead === 0) throw new ArchiveError("The archive ends in the middle (truncated).");
      await onChunk(buffer.subarray(0, bytesRead));
      done += bytesRead;
    }
  }

  /** An entry as a stream of its bytes, for piping through a decompressor to a file. */
  stream(entry: TarEntry): Readable {
    const reader = this;
    return Readable.from(
      (async function* () {
        const chunks: Buffer[] = [];
        let done = 0;
        while (done < entry.size) {
          const part = { ...entry, offset: entry.offset + done, size: Math.min(CHUNK, entry.size - done) };
          await reader.each(part, (chunk) => void chunks.push(Buffer.from(chunk)));
          yield* chunks.splice(0);
          done += part.size;
        }
      })(),
    );
  }

  async sha256(entry: TarEntry): Promise<string> {
    const hash = createHash("sha256");
    await this.each(entry, (chunk) => void hash.update(chunk));
    return hash.digest("hex");
  }

  close(): Promise<void> {
    return this.file.close();
  }
}
