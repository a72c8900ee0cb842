import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type axe from "axe-core";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterEach, beforeAll, expect, inject } from "vitest";
import { waitForMail } from "#server/test/outbox";
import { launchChromium } from "./chromium";

/**
 * Each worker has a server of its own (its own database and outbox), so journeys in parallel workers
 * never see each other's data; a worker keeps to one server for all its files.
 */
function server() {
  const servers = inject("servers");
  const worker = Number(process.env.VITEST_POOL_ID ?? "1");
  const own = servers[(worker - 1) % servers.length];
  if (!own) throw new Error("the e2e global setup started no server");
  return own;
}
export const baseUrl = () => server().baseUrl;
export const dataDir = () => server().dataDir;
/** A demo account's session as a `cookie` header, for journeys that set things up through the API. */
export const sessionCookie = (who: DemoAccount) =>
  (server().sessions[who] ?? []).map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");

export type DemoAccount = "buyer" | "seller" | "reseller" | "admin" | "superadmin";

/**
 * A demo account's call to the API with no page of its own (a fresh page costs a browser context and a
 * renderer): for set-up a journey does not watch. Answers the fetch response.
 */
export const demoApi = (who: DemoAccount, method: string, path: string, data?: unknown) =>
  fetch(`${baseUrl()}${path}`, {
    method,
    headers: {
      cookie: sessionCookie(who),
      ...(data === undefined ? {} : { "content-type": "application/json" }),
    },
    body: data === undefined ? undefined : JSON.stringify(data),
  });

/**
 * One browser per worker (`e2e/chromium.ts`), shared by the files it runs (the e2e project does not
 * isolate files): starting Chromium for every file was a good part of the run's CPU. Playwright closes
 * it when the worker exits; each test still gets fresh contexts, so no cookie or storage crosses tests.
 */
const sharedBrowsers = new Map<boolean, Promise<Browser>>();
function launchBrowser(longLived: boolean): Promise<Browser> {
  let browser = sharedBrowsers.get(longLived);
  if (!browser) {
    browser = launchChromium(longLived);
    sharedBrowsers.set(longLived, browser);
  }
  return browser;
}

/** Pages opened so far by this worker: each visits from an address of its own. */
let pagesMade = 0;

/**
 * Every page records console errors and uncaught exceptions; a test that leaves any fails. `longLived`:
 * the file's pages run long scripts (see the browser's flags above).
 */
export function setupBrowser(options: { longLived?: boolean } = {}) {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser(options.longLived ?? false);
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") await describeOpenPages(contexts, task.name);
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    const found = problems.splice(0);
    expect(found, "console errors or page exceptions").toEqual([]);
  });

  return {
    /**
     * `allowErrors` lists console errors a test provokes on purpose (a 404 page load logs one). `as`
     * starts the page signed in as that demo account (buyer, seller, reseller, admin, superadmin).
     */
    async newPage(
      options: {
        width?: number;
        height?: number;
        theme?: "light" | "dark";
        allowErrors?: RegExp[];
        as?: DemoAccount;
        /** false: the browser runs no script, as a crawler or a visitor before the app's code has come. */
        javaScript?: boolean;
      } = {},
    ): Promise<Page> {
      const javaScript = options.javaScript ?? true;
      const context = await browser.newContext({
        javaScriptEnabled: javaScript,
        baseURL: baseUrl(),
        viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
        // Each page is a visitor of its own, from an address of its own (the e2e servers trust the
        // forwarded address, as behind a proxy): the limits per address (orders, sign-ups) count one
        // person's requests, not those of every journey this worker's server has seen.
        extraHTTPHeaders: { "x-forwarded-for": `203.0.113.${(pagesMade++ % 254) + 1}` },
      });
      contexts.push(context);
      if (options.as) {
        const cookies = server().sessions[options.as] ?? [];
        await context.addCookies(cookies.map((c) => ({ ...c, url: baseUrl() })));
      }
      if (options.theme) {
        await context.addInitScript(`localStorage.setItem("theme", ${JSON.stringify(options.theme)})`);
      }
      const page = await context.newPage();
      // A page the server drew shows before the app has taken it over (hydration, decision 0020); a
      // click then would reach a button with no handler yet. A person can't click that fast: wait, as
      // they would, until the app has every part.
      const hydrated = async () => {
        if (javaScript) await page.waitForFunction(() => !document.querySelector("#root[data-ssr]"));
      };
      const { goto, reload } = page;
      // Not when the caller asked for the earliest moment ("commit"): it looks at the page before that.
      page.goto = async (...args) => {
        const response = await goto.apply(page, args);
        if (args[1]?.waitUntil !== "commit") await hydrated();
        return response;
      };
      page.reload = async (...args) => {
        const response = await reload.apply(page, args);
        if (args[0]?.waitUntil !== "commit") await hydrated();
        return response;
      };
      page.on("console", (message) => {
        if (message.type() !== "error") return;
        if (options.allowErrors?.some((pattern) => pattern.test(message.text()))) return;
        problems.push(`console: ${message.text()} (${page.url()})`);
      });
      page.on("pageerror", (error) => problems.push(`exception: ${error.message} (${page.url()})`));
      return page;
    },
  };
}

/**
 * After a failed journey: what each of its open pages showed (address, title, main headings, toasts
 * and the start of its text) in the log, where CI's output can be read, and a screenshot of each in
 * `test-results/failures/`. A failure seen once in CI is then described, not only its timeout.
 */
async function describeOpenPages(contexts: BrowserContext[], testName: string) {
  const dir = path.resolve("test-results/failures");
  await mkdir(dir, { recursive: true });
  const pages = contexts.flatMap((context) => context.pages());
  const lines = await Promise.all(
    pages.map(async (page, n) => {
      const seen = await page
        .evaluate(() => {
          const texts = (selector: string) =>
            [...document.querySelectorAll(selector)].map((e) => e.textContent?.trim()).join(" | ");
          return {
            title: document.title,
            headings: texts("h1, h2"),
            toasts: texts("[data-sonner-toast]"),
            // biome-ignore lint/performance/useDomNodeTextContent: what shows, not hidden markup's text
            text: (document.body?.innerText ?? "").replace(/\s+/g, " ").slice(0, 400),
          };
        })
        .catch((error: Error) => ({ error: error.message }));
      const file = path.join(dir, `${testName.replace(/\W+/g, "-").slice(0, 60)}-${n}.png`);
      await page.screenshot({ path: file, timeout: 5_000 }).catch(() => undefined);
      return `page ${n}: ${page.url()}\n  ${JSON.stringify(seen)}\n  screenshot: ${file}`;
    }),
  );
  // biome-ignore lint/suspicious/noConsole: CI's log is where a failure of a CI run can be read
  console.log(`The open pages of the failed journey "${testName}":\n${lines.join("\n")}`);
}

/**
 * Holds back the requests matching `pattern` (e.g. the app's JavaScript) until the returned function is
 * called: the page as a visitor sees it before that code has come. Releasing fails when no request was
 * held: the page never asked for what the test meant to keep from it (it had it already), so the test
 * would prove nothing.
 */
export async function holdRequests(page: Page, pattern: string): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let requests = 0;
  await page.route(pattern, async (route) => {
    requests++;
    await held;
    await route.continue();
  });
  return () => {
    release();
    expect(requests, `requests for ${pattern} held`).toBeGreaterThan(0);
  };
}

/** What no page may show, drawn by the server or by the app: the router's error screen, a server path. */
export async function expectNoErrorScreen(page: Page, path: string) {
  expectNoErrorMarkup(await page.content(), path);
}

/** `expectNoErrorScreen` for a page's markup as the server sent it. */
export function expectNoErrorMarkup(html: string, path: string) {
  expect(html, path).not.toContain("Unexpected Application Error");
  expect(html, path).not.toMatch(/Cannot find module|node_modules|dist\/web-ssr|\/src\/web\//);
  expect(html, path).not.toContain('data-testid="route-error-detail"');
}

/**
 * Fails on serious or critical accessibility violations (axe-core, WCAG 2 A/AA). Every screen as it opens
 * is checked by the sweep (layout-sweep.test.ts) at 375 px dark and 1366 px light; journeys check the
 * states it does not reach: an open dialog or menu, an error shown, a form filled in, a toast.
 */
export async function expectAccessible(page: Page) {
  expect(await seriousViolations(page), "accessibility violations").toEqual([]);
}

/**
 * axe-core's minified build: less than half the script of its `source` (the readable build) for each
 * document the checks run in to parse.
 */
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** The page's serious or critical WCAG 2 A/AA violations, each as "rule: help (elements)". */
export async function seriousViolations(page: Page): Promise<string[]> {
  // A toast or dialog still fading in has, for that moment, the contrast of half its opacity. One that
  // has just been attached starts its animation on the next frames: they are waited for first, or there
  // is no animation yet to wait for (a dialog's overlay was judged half faded in, everything behind it
  // failing contrast).
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  await page.evaluate(() =>
    Promise.race([
      Promise.allSettled(
        document
          .getAnimations()
          .filter((animation) => animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
          .map((animation) => animation.finished),
      ),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]),
  );
  // axe-core is loaded once per document (an app's navigations keep it), not again for every check.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    // Colours are judged as they end, not halfway through a transition (a theme switched just before
    // the check fades every button's text for a moment): transitions are cut short while axe looks.
    const still = document.createElement("style");
    still.textContent = "*, *::before, *::after { transition: none !important; }";
    document.head.append(still);
    try {
      const results = await window.axe.run(document, {
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] },
        resultTypes: ["violations"],
      });
      return results.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
    } finally {
      still.remove();
    }
  });
}

/**
 * Keeps a picture of the page for a person to look at, with `SCREENSHOTS=1`, in
 * `test-results/screens/`; it asserts nothing, so by default it costs nothing.
 */
export async function snapshot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  if (process.env.SCREENSHOTS !== "1") return;
  const dir = path.resolve("test-results/screens");
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: options.fullPage ?? false });
}

export type Viewport = { width: number; theme: "light" | "dark" };

/**
 * The widths and themes a journey looks at a screen in: a phone in the dark and a desktop in the light
 * on every run; with `SCREENSHOTS=1`, for a person looking at the pictures, all four.
 */
export function viewports(): Viewport[] {
  const checked: Viewport[] = [
    { width: 375, theme: "dark" },
    { width: 1280, theme: "light" },
  ];
  if (process.env.SCREENSHOTS !== "1") return checked;
  return [...checked, { width: 375, theme: "light" }, { width: 1280, theme: "dark" }];
}

/**
 * Shows an open page at another width and theme instead of opening a fresh one (a new context and
 * renderer): resizes it and, where the theme differs, switches it as another tab of the same browser
 * does: the stored choice changes and the page follows it (the store's storage event). Not through the
 * header's toggle: a signed-in person's pick there is saved to their account, and the demo accounts are
 * shared by every journey of a worker, so one journey's switch would change the next one's theme.
 */
export async function showAt(page: Page, { width, theme }: Viewport, height: number) {
  await page.setViewportSize({ width, height });
  const dark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
  if ((await dark()) === (theme === "dark")) return;
  await page.evaluate((theme) => {
    localStorage.setItem("theme", theme);
    window.dispatchEvent(
      new StorageEvent("storage", { key: "theme", newValue: theme, storageArea: localStorage }),
    );
  }, theme);
  await expect.poll(dark).toBe(theme === "dark");
}

/**
 * Waits until an open dialog holds the keyboard focus: from then on it answers Escape and keeps Tab
 * inside. A dialog is drawn a frame before its effects run, and a key pressed in between goes to the page.
 */
export async function dialogReady(dialog: Locator) {
  await dialog.waitFor();
  await expect.poll(() => dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
}

/** A sonner toast by its title, and its description when given. */
export function toast(page: Page, title: string, description?: string) {
  const found = page
    .locator("[data-sonner-toast]")
    .filter({ has: page.locator("[data-title]", { hasText: title }) });
  return description ? found.filter({ hasText: description }) : found;
}

/** Accounts set up so far by this worker: each signs up from an address of its own. */
let accountsMade = 0;

/**
 * A person who has never been here, through the page's own cookie jar: signs up, verifies with the
 * e-mailed code and (unless `signIn` is false) signs in. Their own account keeps other journeys' orders,
 * balances and listings out of what the test reads.
 */
export async function newAccount(
  page: Page,
  person: {
    firstName: string;
    lastName?: string;
    accountType: "buyer" | "seller";
    email?: string;
    signIn?: boolean;
  },
) {
  const email = person.email ?? `${person.accountType}-${randomUUID().slice(0, 8)}@journeys.test`;
  const password = "a new account's password";
  const signUp = await page.request.post("/api/auth/sign-up", {
    // Accounts a journey sets up come from addresses of their own, as different people's would: the
    // sign-up limit per address (10 in 10 minutes) is for the journeys that sign up through the form.
    headers: { "x-forwarded-for": `198.51.100.${(accountsMade++ % 254) + 1}` },
    data: {
      firstName: person.firstName,
      lastName: person.lastName ?? "Newman",
      email,
      password,
      accountType: person.accountType,
    },
  });
  expect(signUp.status()).toBe(200);
  // The code e-mail goes through the job queue: it is in the outbox a moment after the answer.
  const mail = await waitForMail(dataDir(), (m) => m.to === email);
  const code = mail.body.match(/\b(\d{6})\b/)?.[1] ?? "";
  // The code signs in the browser that signed up (this page's context), as it does for a person.
  expect((await page.request.post("/api/auth/verify-email", { data: { email, code } })).status()).toBe(200);
  if (person.signIn === false) expect((await page.request.post("/api/auth/sign-out")).status()).toBe(204);
  return { email, password };
}

/** Fills and submits the login form of the page that shows it. */
export async function submitLogin(page: Page, email: string, password: string) {
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log In" }).click();
}

declare global {
  interface Window {
    axe: typeof axe;
  }
}
