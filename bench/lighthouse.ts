import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { median, startWebServer } from "./web-server";

/**
 * Lighthouse, mobile preset (the default config: a mid-range phone on slow 4G, simulated throttling),
 * performance only, on home, /products and a product page of the production server with the demo data
 * (bench/web-serve.ts). Each page is measured LIGHTHOUSE_RUNS times (default 5) and every run is printed,
 * with the median and the spread (min–max): simulated throttling scales the CPU time this machine took,
 * so a busy or slower machine reads as a slower phone. Each run also prints the host's benchmark index
 * (Lighthouse's own measure of this machine's speed at that moment; higher is faster), which is what
 * makes figures differ between runs and machines, and the JavaScript fetched during the whole trace
 * (not only before first render). Without Chromium it says so and skips: the benchmark never fails for
 * want of a browser. LIGHTHOUSE_REPORT_DIR keeps each run's full report (JSON) there.
 */
const chromePath =
  process.env.CHROME_PATH ??
  ["/usr/bin/chromium", "/usr/bin/chromium-headless-shell"].find((file) => existsSync(file)) ??
  "/usr/bin/chromium";
const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 5));
const reportDir = process.env.LIGHTHOUSE_REPORT_DIR;

type Figures = {
  score: number;
  lcp: number;
  tbt: number;
  cls: number;
  fcp: number;
  /** Script bytes transferred during the whole trace. */
  scriptKb: number;
  benchmarkIndex: number;
};

type NetworkItem = { resourceType?: string; transferSize?: number };

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
  const requests = (lhr.audits["network-requests"]?.details as { items?: NetworkItem[] } | undefined)?.items;
  const scriptBytes = (requests ?? [])
    .filter((item) => item.resourceType === "Script")
    .reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
  return {
    scriptKb: Math.round(scriptBytes / 102.4) / 10,
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex ?? Number.NaN),
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
  const server = await startWebServer();
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
      const pick = (key: keyof Figures) => figures.map((f) => f[key]);
      const spread = (key: keyof Figures) => `${Math.min(...pick(key))}–${Math.max(...pick(key))}`;
      figures.forEach((f, run) => {
        console.info(
          `Lighthouse, ${name}, run ${run + 1}: score ${f.score}, FCP ${Math.round(f.fcp)} ms, ` +
            `LCP ${Math.round(f.lcp)} ms, TBT ${Math.round(f.tbt)} ms, CLS ${f.cls.toFixed(3)}, ` +
            `script fetched ${f.scriptKb} KB, host benchmark index ${f.benchmarkIndex}` +
            // The app's code comes after the first paint (decision 0020): a trace that stopped before
            // it came measured a page with no script, and its score says nothing about the app.
            (f.scriptKb < 50 ? " (the trace ended before the app's code came: not a real figure)" : ""),
        );
      });
      rows[name] = {
        "median score": median(pick("score")),
        "scores (min–max)": spread("score"),
        "median FCP ms": Math.round(median(pick("fcp"))),
        "median LCP ms": Math.round(median(pick("lcp"))),
        "median TBT ms": Math.round(median(pick("tbt"))),
        "TBT ms (min–max)": `${Math.round(Math.min(...pick("tbt")))}–${Math.round(Math.max(...pick("tbt")))}`,
        "median CLS": Number(median(pick("cls")).toFixed(3)),
        "script KB in trace": spread("scriptKb"),
        "host index (min–max)": spread("benchmarkIndex"),
        scores: pick("score").join(", "),
      };
    }
  } finally {
    chrome?.kill();
    server.child.kill("SIGTERM");
  }
  console.info(
    `Lighthouse ${runs} run(s) a page, mobile preset, performance (production server, demo data, ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)} at the end)`,
  );
  console.table(rows);
}

if (path.resolve(process.argv[1] ?? "") === import.meta.filename) {
  const { ensureWebBuild } = await import("#server/web/build");
  await ensureWebBuild(() => {});
  const { printRouteJs } = await import("./route-js");
  await printRouteJs();
  await runLighthouse();
}
