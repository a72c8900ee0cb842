import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

/**
 * Lighthouse, mobile preset (the default config: a mid-range phone on slow 4G, simulated throttling),
 * performance only, on home, /products and a product page of the production server with the demo data
 * (bench/web-serve.ts). Each page is measured LIGHTHOUSE_RUNS times (default 3): this machine is small
 * and shared, so one run is noise; the best and the median are printed. Without Chromium it says so and
 * skips: the benchmark never fails for want of a browser. LIGHTHOUSE_REPORT_DIR keeps each run's full
 * report (JSON) there, to see what a score is made of.
 */
const chromePath = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
const reportDir = process.env.LIGHTHOUSE_REPORT_DIR;

type Figures = { score: number; lcp: number; tbt: number; cls: number; fcp: number };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

async function startServer() {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "web-serve.ts")], {
    stdio: ["ignore", "pipe", "inherit"],
    env: process.env,
  });
  const first = await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next();
  if (first.done) throw new Error("the web server for Lighthouse exited before listening");
  const server = JSON.parse(first.value) as { address: string; pages: [string, string | null][] };
  return { child, ...server };
}

async function measure(url: string, port: number, reportName: string): Promise<Figures> {
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance"],
  });
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse returned no result for ${url}`);
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
  if (reportDir) {
    await mkdir(reportDir, { recursive: true });
    await writeFile(path.join(reportDir, `${reportName}.json`), JSON.stringify(lhr));
  }
  const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcp: value("largest-contentful-paint"),
    tbt: value("total-blocking-time"),
    cls: value("cumulative-layout-shift"),
    fcp: value("first-contentful-paint"),
  };
}

export async function runLighthouse() {
  if (!existsSync(chromePath)) {
    console.info(`Lighthouse skipped: no Chromium at ${chromePath} (set CHROME_PATH to measure).`);
    return;
  }
  const server = await startServer();
  const rows: Record<string, Record<string, string | number>> = {};
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    chrome = await chromeLauncher.launch({
      chromePath,
      chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    });
    const port = chrome.port;
    for (const [name, pagePath] of server.pages) {
      if (!pagePath) {
        console.info(`Lighthouse: no ${name} to measure (the demo data has no product).`);
        continue;
      }
      const figures: Figures[] = [];
      const failures: string[] = [];
      for (let run = 0; run < runs; run++) {
        const reportName = `${name.replace(/\W+/g, "-").replace(/^-/, "")}-${run + 1}`;
        // On a busy machine Lighthouse now and then loses the trace (NO_NAVSTART): try that run once more,
        // then report the failure rather than end the benchmark.
        for (let attempt = 0; attempt < 2; attempt++) {
          try {
            figures.push(await measure(`${server.address}${pagePath}`, port, reportName));
            break;
          } catch (error) {
            if (attempt === 1) failures.push(error instanceof Error ? error.message : String(error));
          }
        }
      }
      if (failures.length)
        console.info(`Lighthouse, ${name}: ${failures.length} run(s) failed: ${failures.join("; ")}`);
      if (!figures.length) continue;
      const best = figures.reduce((a, b) => (b.score > a.score ? b : a));
      const pick = (key: keyof Figures) => figures.map((f) => f[key]);
      rows[name] = {
        "best score": best.score,
        "median score": median(pick("score")),
        "median LCP ms": Math.round(median(pick("lcp"))),
        "median TBT ms": Math.round(median(pick("tbt"))),
        "median CLS": Number(median(pick("cls")).toFixed(3)),
        "median FCP ms": Math.round(median(pick("fcp"))),
        scores: pick("score").join(", "),
      };
    }
  } finally {
    chrome?.kill();
    server.child.kill("SIGTERM");
  }
  console.info(`Lighthouse ${runs} run(s) a page, mobile preset, performance (production server, demo data)`);
  console.table(rows);
}

if (path.resolve(process.argv[1] ?? "") === import.meta.filename) {
  const { ensureWebBuild } = await import("#server/web/build");
  await ensureWebBuild(() => {});
  await runLighthouse();
}
