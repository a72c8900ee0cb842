import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/**
 * PGlite keeps no lock of its own on its files, and two processes writing them corrupt the database.
 * The server and the backup commands mark DATA_DIR as in use with this file, so a backup or restore
 * refuses to run beside the server and the server refuses to start during one.
 */
export const LOCK_FILE = "in-use.lock";

type Holder = "server" | "backup" | "restore";
type Lock = { holder: Holder; pid: number; host: string; since: string };

export class DataDirInUse extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DataDirInUse";
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function current(file: string): Promise<Lock | null> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as Lock;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    // A half-written file from a crash holds nobody.
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}

/** Whether the lock may belong to a running process; on another host (a container) that cannot be known. */
function held(lock: Lock): boolean {
  if (lock.host !== os.hostname()) return true;
  return lock.pid !== process.pid && alive(lock.pid);
}

/**
 * Marks DATA_DIR as used by `holder` and returns the release. The server only yields to a running backup
 * or restore: a lock a server left (it crashed, or its container was replaced) never keeps it from
 * starting again. Backups and restores yield to anyone who may be running.
 */
export async function lockDataDir(dataDir: string, holder: Holder): Promise<() => Promise<void>> {
  const file = path.resolve(dataDir, LOCK_FILE);
  await mkdir(path.dirname(file), { recursive: true });
  const existing = await current(file);
  if (existing && held(existing) && (holder !== "server" || existing.holder !== "server")) {
    const who = existing.holder === "server" ? "the server" : `a ${existing.holder}`;
    throw new DataDirInUse(
      `${path.resolve(dataDir)} is in use by ${who} (process ${existing.pid} on ${existing.host} since ${existing.since}). ` +
        `Stop it and try again; if it is certainly not running any more, delete ${file}.`,
    );
  }
  const lock: Lock = { holder, pid: process.pid, host: os.hostname(), since: new Date().toISOString() };
  await writeFile(file, `${JSON.stringify(lock)}\n`);
  return async () => {
    const now = await current(file);
    if (now && now.pid === lock.pid && now.since === lock.since) await rm(file, { force: true });
  };
}
