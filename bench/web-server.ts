import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";

/** The production server with the demo data (bench/web-serve.ts) in a child process, once it listens. */
export async function startWebServer() {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "web-serve.ts")], {
    stdio: ["ignore", "pipe", "inherit"],
    env: process.env,
  });
  const first = await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next();
  if (first.done) throw new Error("the benchmark's web server exited before listening");
  const server = JSON.parse(first.value) as { address: string; pages: [string, string | null][] };
  return { child, ...server };
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
