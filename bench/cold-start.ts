import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { freePort } from "#server/test/ports";

/**
 * `npm start` as on a fresh clone, timed from the command to the first healthy `/api/health`: a new
 * DATA_DIR (an empty PGlite database to migrate and seed), a new web build directory and a new TMPDIR (so
 * the rendered demo pictures are not cached). The server prints when each
 * phase of its start began and ended (`startup` in its "started" log line); phases overlap, since the web
 * app builds in a child process while the database is set up. Runs COLD_START_RUNS times (default 3) and
 * prints the median of each figure, since the machine may be busy with other work.
 */
const root = path.resolve(import.meta.dirname, "..");

type Phase = { startMs: number; endMs: number };
type Startup = { totalMs: number; phases: Record<string, Phase> };
/** CPU time in ms: the whole group's, the server process's own (all its threads) and its builds'. */
type Cpu = { totalMs: number; serverMs: number; buildMs: number };
type Run = { healthyMs: number; cpu: Cpu | null; startup: Startup | null };

/**
 * CPU time (user and system) the processes of a group have used, children that ended included, from
 * Linux's /proc: unlike the wall time it hardly depends on what else the machine is doing. The server
 * process's own time covers its threads (the database's initdb worker, the pictures' rendering); the
 * web build's processes have ended by the time it listens, so their time is what it reaped from its
 * children. Null elsewhere.
 */
async function groupCpu(pgid: number): Promise<Cpu | null> {
  const pids = await readdir("/proc").catch(() => null);
  if (!pids) return null;
  const cpu: Cpu = { totalMs: 0, serverMs: 0, buildMs: 0 };
  for (const pid of pids.filter((name) => /^\d+$/.test(name))) {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
    if (!stat) continue;
    // Fields after the command name, which is in parentheses and may hold spaces: state is field 3.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) !== pgid) continue;
    // utime, stime, cutime, cstime (fields 14 to 17), in clock ticks of 1/100 s on Linux.
    const [own, children] = [
      [11, 12],
      [13, 14],
    ].map((ids) => ids.reduce((sum, i) => sum + Number(fields[i]) * 10, 0)) as [number, number];
    cpu.totalMs += own + children;
    const command = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (command.includes("src/server/start.ts")) {
      cpu.serverMs = own;
      cpu.buildMs = children;
    }
  }
  return cpu;
}

async function oneColdStart(): Promise<Run> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "stackbay-cold-start-"));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: path.join(dir, "data"),
    WEB_BUILD_DIR: path.join(dir, "web"),
    TMPDIR: path.join(dir, "tmp"),
    LOG_LEVEL: "info",
    // What a fresh clone runs: embedded PGlite outside production, whatever the bench itself was given.
    DATABASE_URL: undefined,
    NODE_ENV: undefined,
  };
  await mkdir(path.join(dir, "tmp"));
  const started = performance.now();
  // Its own process group, so stopping it stops npm and the server together.
  const child = spawn("npm", ["start", "--silent"], {
    cwd: root,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let startup: Startup | null = null;
  let output = "";
  createInterface({ input: child.stdout }).on("line", (line) => {
    if (!line.includes('"startup"')) return;
    try {
      startup = (JSON.parse(line) as { startup: Startup }).startup;
    } catch {
      // A line that only mentions the word is not the start's summary.
    }
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  try {
    for (;;) {
      if (exited) throw new Error(`npm start ended before it was healthy:\n${output}`);
      if (performance.now() - started > 300_000) throw new Error("npm start was not healthy within 300 s");
      const healthy = await fetch(`http://127.0.0.1:${port}/api/health`)
        .then((r) => r.ok)
        .catch(() => false);
      if (healthy) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const healthyMs = performance.now() - started;
    const cpu = child.pid ? await groupCpu(child.pid) : null;
    // The summary is logged right after listen; give the line a moment to arrive.
    for (let i = 0; i < 40 && !startup; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    return { healthyMs, cpu, startup };
  } finally {
    if (!exited && child.pid) {
      process.kill(-child.pid, "SIGTERM");
      await once(child, "exit");
    }
    await rm(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const seconds = (ms: number) => Math.round(ms / 100) / 10;

export async function coldStart(runs = Number(process.env.COLD_START_RUNS ?? 3)) {
  const results: Run[] = [];
  for (let i = 0; i < runs; i++) results.push(await oneColdStart());
  const rows: Record<string, Record<string, number | string>> = {};
  const row = (name: string, pick: (startup: Startup) => Phase | undefined) => {
    const phases = results.flatMap((r) => (r.startup && pick(r.startup) ? [pick(r.startup) as Phase] : []));
    if (phases.length === 0) return;
    rows[name] = {
      "starts at s": seconds(median(phases.map((p) => p.startMs))),
      "ends at s": seconds(median(phases.map((p) => p.endMs))),
      "takes s": seconds(median(phases.map((p) => p.endMs - p.startMs))),
    };
  };
  row("start node and the server's first modules", (s) => {
    const first = s.phases.createCluster ?? s.phases.loadAppModules;
    return first ? { startMs: 0, endMs: first.startMs } : undefined;
  });
  row("render the demo pictures (sharp's threads)", (s) => s.phases.renderPictures);
  row("create the database cluster (worker thread)", (s) => s.phases.createCluster);
  row("load the app's modules", (s) => s.phases.loadAppModules);
  row("build the web app (child process)", (s) => s.phases.webBuild);
  row("open the database", (s) => s.phases.openDatabase);
  row("migrate", (s) => {
    const all = s.phases.migrateAndSeed;
    const seed = s.phases.seed;
    return all && { startMs: all.startMs, endMs: seed ? seed.startMs : all.endMs };
  });
  row("seed the demo data (pictures included)", (s) => s.phases.seed);
  row("build the Fastify app", (s) => s.phases.buildApp);
  row("listen", (s) => s.phases.listen);
  const totals = results.map((r) => r.healthyMs);
  rows["npm start → healthy /api/health"] = {
    "starts at s": 0,
    "ends at s": seconds(median(totals)),
    "takes s": seconds(median(totals)),
  };
  const cpu = results.flatMap((r) => (r.cpu === null ? [] : [r.cpu]));
  const cpuRow = (name: string, pick: (cpu: Cpu) => number) => {
    if (cpu.length > 0)
      rows[name] = { "starts at s": "", "ends at s": "", "takes s": seconds(median(cpu.map(pick))) };
  };
  cpuRow("CPU time of all its processes until healthy", (c) => c.totalMs);
  cpuRow("  of which the server process (all its threads)", (c) => c.serverMs);
  cpuRow("  of which the web build's processes", (c) => c.buildMs);
  console.info(
    `Cold start (fresh DATA_DIR, web build and TMPDIR; ${os.cpus().length} cores, load ${os
      .loadavg()[0]
      ?.toFixed(
        1,
      )}): median of ${runs} runs, each run's total ${totals.map((t) => `${seconds(t)} s`).join(", ")}` +
      "; times in s since the server process started, phases overlap",
  );
  console.table(rows);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  await coldStart();
}
