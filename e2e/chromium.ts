import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/**
 * Debian's Chromium headless shell (the old headless mode, without the full browser's UI layers: about a
 * fifth less CPU per journey than `chromium --headless`), or the full Chromium where only that is
 * installed; `CHROMIUM_PATH` picks another build.
 */
export const chromiumPath =
  process.env.CHROMIUM_PATH ??
  ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((file) => existsSync(file)) ??
  "/usr/bin/chromium";

/**
 * Chromium as the journeys run it (and `bench/journey-pages.ts` measures it), headless, with the flags
 * this sandbox needs (no background network, no sandbox as root).
 *
 * A journey's V8 runs without its optimising compilers (Maglev, TurboFan): its pages live a few seconds
 * each in a renderer of their own, too short for optimised code to pay back its compilation, which runs
 * on other threads and counts in the run's CPU. The interpreter and Sparkplug run the same JavaScript
 * with the same results; on pages opened as journeys open them (new context, load, hydration, axe)
 * Chromium used 9% less CPU (17.4 and 17.7 core-seconds against 19.8 and 18.7; without Sparkplug as
 * well it used more). The width sweep keeps them (`longLived`): its pages walk every element and run
 * axe at many widths, and without them it used 12% more (209 core-seconds against 187). Other flags
 * measured the same way changed nothing beyond noise: reduced motion, no GPU compositing, low-end device
 * mode, single-threaded V8, a process per site.
 */
export function launchChromium(longLived: boolean): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
      ...(longLived ? [] : ["--js-flags=--no-opt --no-maglev"]),
    ],
  });
}
