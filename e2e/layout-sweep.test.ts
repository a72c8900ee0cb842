import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { dashboardViews, href, routePatterns } from "#domain/routes";
import { expectNoErrorScreen, seriousViolations, setupBrowser } from "./browser";
import {
  orderConfirmedByHand,
  pageFor,
  type RouteVisits,
  routeVisits,
  type Visit,
  viewOwners,
  type Who,
} from "./route-visits";

// Pages that live through many screens, widths and axe runs: V8 keeps its optimising compilers.
const browser = setupBrowser({ longLived: true });

/**
 * The widths of the sweep, each with a height a real screen of that width has. No style of the app changes
 * above 1280 px (none uses `2xl`), so a wider screen shows the 1366 px layout with more room (most screens
 * stop at `max-w-7xl` and only widen their margins): 1366 px stands for every desktop.
 */
const SIZES = [
  { width: 320, height: 568 },
  { width: 375, height: 667 },
  { width: 768, height: 1024 },
  { width: 1024, height: 768 },
  { width: 1366, height: 768 },
] as const;
const THEMES = ["light", "dark"] as const;
/** Focusable elements, in document order, focused one after the other as Tab would. */
const FOCUSED = 40;
/** Where axe-core looks for serious WCAG 2 A/AA violations: a phone in the dark, a desktop in the light. */
const AXE = [
  { width: 375, theme: "dark" },
  { width: 1366, theme: "light" },
] as const;
/** Full-page pictures (with `SCREENSHOTS=1`), for a person to look at. */
const PICTURED = new Set<number>([375, 1366]);
const screens = path.resolve("test-results/sweep");

let routes: RouteVisits;

beforeAll(async () => {
  routes = await routeVisits(browser);
  await orderConfirmedByHand(browser);
});

/** Every screen of the route table and every dashboard view; the legacy paths only redirect to them. */
function sweptVisits(): Visit[] {
  const own = Object.entries(routes.visits)
    .filter(([name]) => !name.startsWith("legacy"))
    .map(([, visit]) => visit);
  const views = dashboardViews.map((view) => ({
    path: href(routePatterns.dashboardView, { view }),
    who: viewOwners[view],
  }));
  return [...own, ...views];
}

/**
 * Opens a screen directly, as a typed-in address or a link from elsewhere does (the server draws it, the
 * app takes it over), then waits for its heading, for loading placeholders to go and for the network to
 * be quiet (images and late queries change the layout). What no screen may answer or show fails here:
 * anything but 200, the router's error screen or a server path, the not-found screen (and, through
 * `setupBrowser`, any console error).
 */
async function open(page: Page, path: string, inFlight: () => number) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  await page.locator("main h1, main h2, main [role=alert]").first().waitFor();
  await page
    .waitForFunction(() => !document.querySelector('main [aria-busy="true"], main .animate-pulse'), null, {
      timeout: 5_000,
    })
    .catch(() => undefined);
  for (let quiet = 0, waited = 0; quiet < 2 && waited < 40; waited++) {
    await page.waitForTimeout(50);
    quiet = inFlight() === 0 ? quiet + 1 : 0;
  }
  expect(await page.getByTestId("not-found").count(), path).toBe(0);
  await expectNoErrorScreen(page, path);
}

/**
 * Everything the sweep fails on, measured in the page in one pass:
 * - sideways overflow: the document wider than the window, or an element reaching past its left or
 *   right edge (unless an ancestor clips or scrolls it: then that ancestor is what is measured);
 * - text cut by its container: an element holding text, with overflow hidden or clipped or an
 *   ellipsis, whose content is wider than its box; a native select whose chosen option, or an empty
 *   field whose placeholder, is wider than the box. Truncation is deliberate, and allowed, only where the full text is at hand: a `title`
 *   on the element or an ancestor. Visually hidden text (`sr-only`) is not shown, so not cut;
 * - a back-office table drawn as cards on a screen wider than 1024 px;
 * - with `focus`, an element covering focus: the first focusable elements are focused in document
 *   order (which scrolls each into view as Tab does), and at the centre and at each edge of the focused
 *   one there must be no part of a fixed or sticky element (a bar, a header) that does not hold it. What
 *   scrolls with the page (a field's own Show password button) is part of the layout, not a cover. A
 *   text field is judged by its first line (the browser brings its caret into view, not the whole box)
 *   and a region taller than a third of the window by the middle of its visible part.
 */
function problemsIn(page: Page, theme: (typeof THEMES)[number], focus: boolean) {
  return page.evaluate(
    async ({ dark, focus, focused }) => {
      // The theme switched in place, its colours at once (no transition a picture would catch
      // halfway); then two frames, so a resize's ResizeObserver callbacks and their renders have run.
      if (!document.getElementById("sweep-still")) {
        const still = document.createElement("style");
        still.id = "sweep-still";
        still.textContent = "*, *::before, *::after { transition: none !important; }";
        document.head.append(still);
      }
      document.documentElement.classList.toggle("dark", dark);
      // The light pass comes first after each resize; the dark one changes only colours.
      if (!dark) await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const found: string[] = [];
      const name = (el: Element) => {
        const id = el.id ? `#${el.id}` : "";
        const testId = el.getAttribute("data-testid");
        const text = (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40);
        return `${el.tagName.toLowerCase()}${id}${testId ? `[${testId}]` : ""} "${text}"`;
      };
      const viewport = document.documentElement.clientWidth;
      if (document.documentElement.scrollWidth > viewport)
        found.push(`the page is ${document.documentElement.scrollWidth} px wide`);

      const hidden = (style: CSSStyleDeclaration) =>
        style.clipPath === "inset(50%)" || style.clip === "rect(0px, 0px, 0px, 0px)";
      const canvas = document.createElement("canvas").getContext("2d");
      const walk = (el: Element, clipped: boolean) => {
        const style = getComputedStyle(el);
        if (style.display === "none" || hidden(style)) return;
        const box = el.getBoundingClientRect();
        const fixed = style.position === "fixed";
        if ((!clipped || fixed) && box.width > 0 && style.visibility !== "hidden") {
          // Wholly off to the left (a honeypot field) is out of sight and adds no scrolling.
          if (box.right > viewport + 1 || (box.left < -1 && box.right > 0))
            found.push(
              `${name(el)} reaches past the window (${Math.round(box.left)}–${Math.round(box.right)})`,
            );
        }
        const cuts =
          style.overflowX === "hidden" || style.overflowX === "clip" || style.textOverflow === "ellipsis";
        const ownText = [...el.childNodes].some(
          (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? "").trim() !== "",
        );
        if (cuts && ownText && el.scrollWidth > el.clientWidth + 1 && !el.closest("[title]"))
          found.push(`${name(el)} is cut (${el.scrollWidth} px of text in ${el.clientWidth} px)`);
        // What a select shows (its chosen option) and an empty field's placeholder are text too.
        const shown =
          el instanceof HTMLSelectElement
            ? (el.selectedOptions[0]?.textContent ?? "")
            : el instanceof HTMLInputElement && el.value === ""
              ? el.placeholder
              : "";
        if (shown && canvas && !el.closest("[title]")) {
          canvas.font = style.font;
          const room =
            el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
          if (canvas.measureText(shown).width > room + 1) found.push(`${name(el)} shows "${shown}" cut`);
        }
        const clips = clipped || (style.overflowX !== "visible" && !fixed);
        for (const child of el.children) walk(child, clips);
      };
      walk(document.body, false);

      if (viewport > 1024)
        for (const frame of document.querySelectorAll('[data-slot="table-frame"][data-stacked]'))
          found.push(`${frame.getAttribute("aria-label")} table is drawn as cards`);

      /** The fixed or sticky element something belongs to: what stays put while the page scrolls under it. */
      const layerOf = (el: Element) => {
        for (let at: Element | null = el; at; at = at.parentElement) {
          const { position } = getComputedStyle(at);
          if (position === "fixed" || position === "sticky") return at;
        }
        return null;
      };
      if (focus) {
        const candidates = [
          ...document.querySelectorAll<HTMLElement>(
            'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])',
          ),
        ].filter(
          (el) =>
            el.tabIndex >= 0 &&
            !el.matches(":disabled") &&
            el.checkVisibility({ visibilityProperty: true }) &&
            !hidden(getComputedStyle(el)),
        );
        for (const el of candidates.slice(0, focused)) {
          el.focus();
          if (document.activeElement !== el) continue;
          const box = el.getClientRects()[0] ?? el.getBoundingClientRect();
          if (box.width < 4 || box.height < 4) continue;
          const inset = 2;
          const middle = box.left + box.width / 2;
          // A text field shows its caret, which the browser keeps in view, not the whole box: its first
          // line must be clear. A region taller than a third of the window (a scrolling table, a long
          // list) cannot be in view whole: the middle of what shows of it must be clear.
          const editable = el.matches("textarea, [contenteditable]");
          const tall = box.height > window.innerHeight / 3;
          const points: (readonly [number, number])[] = editable
            ? [[middle, box.top + 10]]
            : tall
              ? [[middle, (Math.max(box.top, 0) + Math.min(box.bottom, window.innerHeight)) / 2]]
              : [
                  [middle, box.top + box.height / 2],
                  [middle, box.top + inset],
                  [middle, box.bottom - inset],
                  [box.left + inset, box.top + box.height / 2],
                  [box.right - inset, box.top + box.height / 2],
                ];
          for (const [x, y] of points) {
            if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) continue;
            const hit = document.elementFromPoint(x, y);
            if (!hit || el.contains(hit) || hit.contains(el)) continue;
            const cover = layerOf(hit);
            if (!cover || cover.contains(el)) continue;
            found.push(`${name(el)}, focused, is covered by ${name(hit)}`);
            break;
          }
        }
        (document.activeElement as HTMLElement | null)?.blur();
        window.scrollTo(0, 0);
        for (const frame of document.querySelectorAll('[data-slot="table-frame"]')) frame.scrollLeft = 0;
      }
      return found;
    },
    { dark: theme === "dark", focus, focused: FOCUSED },
  );
}

/** One role's screens in one page: each opened once, then resized and re-themed in place. */
async function sweep(who: Who, visits: Visit[], problems: string[]) {
  const allowErrors = visits.flatMap((visit) => visit.allowErrors ?? []);
  const page = await pageFor(browser, { who, allowErrors }, { width: 1366, height: 768 }, routes.cookies);
  let inFlight = 0;
  page.on("request", () => inFlight++);
  page.on("requestfinished", () => inFlight--);
  page.on("requestfailed", () => inFlight--);
  for (const { path: screen } of visits) {
    await open(page, screen, () => inFlight);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      // Dark mode changes colours, not layout: its pass runs where axe judges the dark colours (and the
      // pictures show them), the light pass at every width.
      const themes = AXE.some((checked) => checked.width === size.width) ? THEMES : (["light"] as const);
      for (const theme of themes) {
        for (const problem of await problemsIn(page, theme, theme === "light"))
          problems.push(`${who} ${screen} at ${size.width} px (${theme}): ${problem}`);
        if (AXE.some((checked) => checked.width === size.width && checked.theme === theme))
          for (const violation of await seriousViolations(page))
            problems.push(`${who} ${screen} at ${size.width} px (${theme}): ${violation}`);
        if (process.env.SCREENSHOTS === "1" && PICTURED.has(size.width)) {
          const file = `${who}${screen.split("?")[0]?.replaceAll("/", "_")}-${size.width}-${theme}.png`;
          await page.screenshot({ path: path.join(screens, file.replaceAll(" ", "-")), fullPage: true });
        }
      }
    }
  }
  await page.close();
}

describe("every screen of every role, opened directly, at every width, light and dark", () => {
  test("each answers and shows its screen without an error; nothing overflows sideways, no text is cut, nothing covers focus, no table is cards above 1024 px, and axe finds nothing serious", async () => {
    if (process.env.SCREENSHOTS === "1") await mkdir(screens, { recursive: true });
    // Each role's screens in pages of up to six, three pages at a time: a good part of each screen's
    // time is waiting for the server, and short runs share the work out evenly.
    const queue: [Who, Visit[]][] = [];
    for (const visit of sweptVisits()) {
      const last = queue.findLast(([who, visits]) => who === visit.who && visits.length < 6);
      if (last) last[1].push(visit);
      else queue.push([visit.who, [visit]]);
    }
    const problems: string[] = [];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await sweep(next[0], next[1], problems);
    };
    const started = Date.now();
    await Promise.all([worker(), worker(), worker()]);
    console.info(`The sweep took ${Math.round((Date.now() - started) / 1000)} s.`);
    expect(problems).toEqual([]);
    // Every screen of every role at every width and theme: about 125 s on a quiet two-core machine with
    // nothing else running, about 300 s in CI beside the other journeys.
  }, 480_000);
});
