import { beforeAll, describe, expect, test } from "vitest";
import { dashboardViews, href, routePatterns } from "#domain/routes";
import { isServerRendered } from "#server/web/ssr";
import { baseUrl, expectNoErrorMarkup, expectNoErrorScreen, sessionCookie, setupBrowser } from "./browser";
import { pageFor as openFor, type RouteVisits, routeVisits, type Visit, viewOwners } from "./route-visits";

const browser = setupBrowser();

let visits: RouteVisits["visits"];
let cookies: RouteVisits["cookies"];

beforeAll(async () => {
  ({ visits, cookies } = await routeVisits(browser));
});

/**
 * Without script: the answer is not a server error, and a page the server draws comes drawn (a failed
 * render answers the shell, which would hide a broken page from a crawler). A browser that runs no
 * script shows the markup as it came, so the markup is what is read: the page asked for over HTTP with
 * the visit's cookies, no browser page needed. A render past its time limit on a busy machine answers
 * the shell too, so that is asked again, twice at most.
 */
async function visitWithoutScript(visit: Visit) {
  const { path, who } = visit;
  const cookie =
    who === "new buyer" || who === "new seller"
      ? (cookies[who] ?? []).map((c) => `${c.name}=${c.value}`).join("; ")
      : who === "visitor"
        ? ""
        : sessionCookie(who);
  const load = async () => {
    const response = await fetch(`${baseUrl()}${path}`, { headers: { cookie, accept: "text/html" } });
    return { status: response.status, html: await response.text() };
  };
  let { status, html } = await load();
  expect(status, path).toBe(200);
  expectNoErrorMarkup(html, path);
  if (!isServerRendered(path.split("?")[0] ?? "")) return;
  for (let attempt = 0; attempt < 2 && serverDrawnHeadings(html) === 0; attempt++)
    ({ status, html } = await load());
  expect(status, path).toBe(200);
  expect(serverDrawnHeadings(html), `${path} is drawn by the server`).toBe(1);
  expectNoErrorMarkup(html, path);
}

/** How many top headings the server drew in the page's main area (`#root[data-ssr] main h1`). */
function serverDrawnHeadings(html: string): number {
  const drawn = html
    .split('<div id="root" data-ssr>')[1]
    ?.split('<script type="application/json" id="ssr-state">')[0];
  const main = drawn?.match(/<main[\s>][\s\S]*<\/main>/)?.[0] ?? "";
  return main.match(/<h1[\s>]/g)?.length ?? 0;
}

/** With script: the app takes the page over (or draws it) and shows a screen; console errors fail the test. */
async function visitWithScript(visit: Visit) {
  const { path } = visit;
  const page = await openFor(browser, visit, { javaScript: true }, cookies);
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  await page.locator("main").first().waitFor();
  await expect
    .poll(() => page.locator("main h1, main h2, main [role=alert]").first().isVisible(), { message: path })
    .toBe(true);
  // Whatever the screen asks for has come (and any console error it causes has been logged).
  await page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => undefined);
  expect(await page.getByTestId("not-found").count(), path).toBe(0);
  await expectNoErrorScreen(page, path);
  await page.close();
}

/**
 * Visits three at a time, each in its own page: most of a visit is waiting (for the server, for the
 * network to go quiet), which overlaps, as several visitors' would.
 */
async function eachOf<T>(items: T[], visit: (item: T) => Promise<void>) {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await visit(item);
  };
  await Promise.all([worker(), worker(), worker()]);
}

describe("every route of the table, opened directly", () => {
  test("without script: no error screen or 5xx, and the public pages come drawn by the server", async () => {
    await eachOf(Object.values(visits), visitWithoutScript);
  }, 300_000);

  // With script, every screen is opened directly by the width sweep (e2e/layout-sweep.test.ts), which
  // fails on the same things; the old addresses it leaves out, since they only lead to those screens,
  // are opened here.
  test("with script: the old addresses lead to their screen, with no error screen and no console error", async () => {
    await eachOf(
      Object.entries(visits)
        .filter(([name]) => name.startsWith("legacy"))
        .map(([, visit]) => visit),
      visitWithScript,
    );
  }, 300_000);

  test("every dashboard view, as the role it is for, without script (with it: the width sweep)", async () => {
    await eachOf([...dashboardViews], async (view) => {
      await visitWithoutScript({ path: href(routePatterns.dashboardView, { view }), who: viewOwners[view] });
    });
  }, 300_000);
});
