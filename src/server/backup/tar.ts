import { createHash } from "node:crypto";
import { once } from "node:events";
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { extract, pack } from "tar-stream";

/**
 * Backups are one tar file (`tar -tf` lists it), written and read as streams with tar-stream, so a large
 * database dump passes through without being held in memory whole.
 */

export class ArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ArchiveError";
  }
}

export type EntryDigest = { size: number; sha256: string };

export type ArchiveWriter = {
  add(name: string, body: Buffer): Promise<EntryDigest>;
  /** Copies a file while reading it: a large database dump is never held in memory. */
  addFile(name: string, path: string): Promise<EntryDigest>;
};

/**
 * Writes a new archive at `file` (refused if it exists) with the entries `fill` adds, in order, and
 * flushes it to disk. A failure leaves a partial file for the caller to remove.
 */
export async function writeArchive<T>(
  file: string,
  fill: (archive: ArchiveWriter) => Promise<T>,
): Promise<T> {
  // Opened first, so a file that exists is refused before any work.
  const handle = await open(file, "wx");
  const archive = pack();
  const written = pipeline(archive, handle.createWriteStream({ flush: true }));

  async function addEntry(name: string, size: number, chunks: AsyncIterable<Buffer> | Buffer[]) {
    let settle!: (error?: Error | null) => void;
    // The entry's callback is the one place a failed write of the archive file reaches the writer.
    const done = new Promise<void>((resolve, reject) => {
      settle = (error) => (error ? reject(error) : resolve());
    });
    done.catch(() => undefined);
    const sink = archive.entry({ name, size }, (error) => settle(error));
    // Its error also arrives through that callback; unheard, the event would crash the process.
    sink.on("error", () => undefined);
    const hash = createHash("sha256");
    let copied = 0;
    for await (const chunk of chunks) {
      hash.update(chunk);
      copied += chunk.length;
      if (copied > size) break;
      if (!sink.write(chunk)) await Promise.race([once(sink, "drain"), done]);
    }
    if (copied !== size) {
      const error = new ArchiveError(`${name} changed size while it was being archived.`);
      sink.destroy(error);
      throw error;
    }
    sink.end(null);
    await done;
    return { size, sha256: hash.digest("hex") };
  }

  const writer: ArchiveWriter = {
    add: (name, body) => addEntry(name, body.length, [body]),
    async addFile(name, path) {
      const { size } = await stat(path);
      const source = createReadStream(path);
      try {
        return await addEntry(name, size, source);
      } finally {
        source.destroy();
      }
    },
  };

  const filled = fill(writer).then(
    (result) => {
      archive.finalize();
      return result;
    },
    (error: unknown) => {
      archive.destroy(error as Error);
      throw error;
    },
  );
  // Both settle before returning: the archive file is closed whichever side failed first.
  const [fillResult, writeResult] = await Promise.allSettled([filled, written]);
  await handle.close().catch(() => undefined);
  if (fillResult.status === "rejected") throw fillResult.reason;
  if (writeResult.status === "rejected") throw writeResult.reason;
  return fillResult.value;
}

export type ArchiveEntry = { name: string; size: number; body: AsyncIterable<Buffer> };

const TRUNCATED = "The archive ends in the middle (truncated).";

/**
 * Reads an archive from start to end, handing each regular file to `onEntry` in order; `onEntry` reads
 * the body whole, or not at all (it is then skipped). A truncated or damaged archive throws ArchiveError.
 */
export async function readArchive(
  file: string,
  onEntry: (entry: ArchiveEntry) => Promise<void>,
): Promise<void> {
  const input = createReadStream(file);
  const entries = extract();
  let failure: Error | undefined;
  entries.on("error", (error: Error) => {
    failure = error;
  });
  input.on("error", (error) => entries.destroy(error));
  input.pipe(entries);
  try {
    for await (const entry of entries) {
      const { name, size, type } = entry.header;
      const body = (async function* () {
        for await (const chunk of entry) yield chunk as Buffer;
      })();
      if (type === "file" || type === "contiguous-file") await onEntry({ name, size, body });
      while (!(await body.next()).done);
    }
  } catch (error) {
    // A handler sees the archive's own failure as the end of its body; report the cause.
    if (!failure) throw error;
    if ((failure as NodeJS.ErrnoException).code) throw failure;
    throw new ArchiveError(
      failure.message === "Unexpected end of data"
        ? TRUNCATED
        : "The archive is damaged (a header is invalid).",
    );
  } finally {
    input.destroy();
  }
  await requireEndMarker(file);
}

/**
 * tar-stream takes an archive cut exactly between two entries as complete; every tar ends with two zero
 * blocks, which such a cut loses.
 */
async function requireEndMarker(file: string) {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    const tail = Buffer.alloc(1024);
    if (size < tail.length) throw new ArchiveError(TRUNCATED);
    await handle.read(tail, 0, tail.length, size - tail.length);
    if (tail.some((byte) => byte !== 0)) throw new ArchiveError(TRUNCATED);
  } finally {
    await handle.close();
  }
}
