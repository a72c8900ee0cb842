import { readFileSync } from "node:fs";
import os from "node:os";
import type { Browser, BrowserContext } from "playwright-core";
import { chromiumPath, launchChromium } from "../e2e/chromium";
import { median, startWebServer } from "./web-server";

/**
 * What a journey's page costs the machine: the CPU time of every process (Chromium's browser, renderer
 * and utility processes, the server, this process) while a page is opened as the journeys open one, read
 * from the kernel's counters for the whole machine (`/proc/stat`), so the machine must be otherwise
 * quiet: its use over three seconds before the benchmark is printed first. Chromium as the journeys launch it (`e2e/chromium.ts`), the
 * production server with the demo data (bench/web-serve.ts). Each case runs JOURNEY_PAGES (default 10)
 * pages a round, JOURNEY_ROUNDS (default 3) rounds; each round's mean per page is printed with the median
 * and the spread. The journeys' run time is their CPU (both cores stay busy through it), so this is the
 * unit their run is made of.
 */
const perRound = Math.max(1, Number(process.env.JOURNEY_PAGES ?? 10));
const rounds = Math.max(1, Number(process.env.JOURNEY_ROUNDS ?? 3));
const hertz = 100;

/** CPU time of the whole machine so far, in seconds (user, nice, system, irq, softirq). */
function machineCpu(): number {
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = (
    readFileSync("/proc/stat", "utf8").split("\n")[0] ?? ""
  )
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (user + nice + system + irq + softirq) / hertz;
}

type Case = { name: string; open: (browser: Browser, kept: BrowserContext) => Promise<void> };

export async function journeyPages() {
  // How busy the machine is without this benchmark: its CPU use over three quiet seconds.
  const idleFrom = machineCpu();
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const cores = os.availableParallelism();
  const busy = ((machineCpu() - idleFrom) / 3 / cores) * 100;
  console.info(
    `Journey pages: CPU seconds of the whole machine per page (${rounds} rounds of ${perRound}; ${chromiumPath}; the machine busy ${busy.toFixed(0)}% of ${cores} cores before it started)`,
  );
  const server = await startWebServer();
  const browser = await launchChromium(false);
  try {
    const kept = await browser.newContext();
    /** A page in a context of its own, loaded and taken over by the app, then closed with its context. */
    const fresh =
      (url: string) =>
      async (b: Browser): Promise<void> => {
        const context = await b.newContext();
        const page = await context.newPage();
        await page.goto(url);
        if (url !== "about:blank")
          await page.waitForFunction(() => !document.querySelector("#root[data-ssr]"));
        await context.close();
      };
    const cases: Case[] = [
      { name: "a new context, nothing loaded", open: async (b) => (await b.newContext()).close() },
      { name: "a new page in a new context, blank", open: fresh("about:blank") },
      {
        name: "a new page in a kept context, blank",
        open: async (_b, context) => (await context.newPage()).goto("about:blank").then(() => undefined),
      },
      ...server.pages
        .filter((entry): entry is [string, string] => entry[1] !== null)
        .map(([name, pagePath]) => ({
          name: `${name}, loaded and hydrated in a new page`,
          open: fresh(`${server.address}${pagePath}`),
        })),
    ];
    // Once each first: the server's caches and Chromium's own start are not what is measured.
    for (const { open } of cases) await open(browser, kept);
    const rows: Record<string, string>[] = [];
    for (const { name, open } of cases) {
      const perPage: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const before = machineCpu();
        for (let i = 0; i < perRound; i++) await open(browser, kept);
        perPage.push((machineCpu() - before) / perRound);
        for (const page of kept.pages()) await page.close();
      }
      rows.push({
        case: name,
        "CPU s per page (median)": median(perPage).toFixed(3),
        spread: `${Math.min(...perPage).toFixed(3)}–${Math.max(...perPage).toFixed(3)}`,
      });
    }
    console.table(rows);
  } finally {
    await browser.close();
    server.child.kill("SIGTERM");
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await journeyPages();
