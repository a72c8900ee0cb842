import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { FastifyInstance } from "fastify";
import { type DrawnPage, pageQueries } from "#domain/page-queries";
import { href, matchRoute, routePatterns } from "#domain/routes";
import { CATALOGUE_CACHE_CONTROL } from "#server/modules/catalog/cached";

/** What `src/web/entry-server.tsx` exports (built to `ssrEntry` by `ensureWebBuild`). */
type Renderer = {
  renderPage(
    url: string,
    fetchOnServer: typeof fetch,
  ): Promise<{ html: string; state: unknown; complete: boolean } | null>;
};

/**
 * The public pages drawn on the server (decision 0020): the ones people arrive at from outside
 * (search engines, shared links, ads). Account, checkout and admin screens need the visitor's session,
 * which the server's render never uses, so they would only be drawn loading: the browser draws those.
 * KEPT pages are drawn from data whose every change clears the catalogue cache (the catalogue tables'
 * triggers, decision 0018), so a drawn one is kept there; a content page, a storefront (its reviews) and
 * a comparison also read other public data, so they are drawn afresh for each visit. Each is named in
 * `pageQueries`, which says what of the query string it reads.
 */
const KEPT = [
  "home",
  "products",
  "product",
  "about",
  "contact",
  "faq",
  "privacy",
  "terms",
  "partner",
  "developers",
] as const satisfies readonly DrawnPage[];
const RENDERED: readonly DrawnPage[] = [...KEPT, "compare", "vendor", "page"];

const drawnPageAt = (pathname: string) =>
  RENDERED.find((name) => matchRoute(routePatterns[name], pathname) !== null);
export const isServerRendered = (pathname: string) => drawnPageAt(pathname) !== undefined;

/**
 * The address a page is drawn and kept under: its path with the route's own percent-encoding and no
 * trailing slash, and only the query it reads (`pageQueries`), so `?utm_source=…`, `fbclid`, unknown
 * keys and default values make no new page. Undefined for a path no drawn page matches.
 */
export function canonicalPage(pathWithQuery: string) {
  const url = new URL(pathWithQuery, "http://stackbay.internal");
  const name = drawnPageAt(url.pathname);
  if (name === undefined) return undefined;
  const pattern = routePatterns[name];
  const params = matchRoute(pattern, url.pathname) ?? {};
  const path = (href as (pattern: string, params: Record<string, string>) => string)(pattern, params);
  return {
    url: `${path}${pageQueries[name](url.searchParams)}`,
    kept: (KEPT as readonly DrawnPage[]).includes(name),
  };
}

/**
 * Fresh renders each client address may cause in any 60 seconds (a render costs tens of milliseconds of
 * CPU; a kept page served again costs none). The window slides: a flood that straddles the turn of a
 * minute gets no second budget. Counted per instance, as the CPU it protects; the table holds at most
 * `maxClients` addresses with renders in the last minute, and one more gets no fresh render until one of
 * them has had none for a minute.
 */
export class RenderBudget {
  /** Per client, the times of its renders in the last minute, oldest first. */
  private readonly renders = new Map<string, number[]>();

  private readonly perMinute: number;
  private readonly maxClients: number;
  private readonly now: () => number;

  constructor(perMinute: number, maxClients = 10_000, now: () => number = Date.now) {
    this.perMinute = perMinute;
    this.maxClients = maxClients;
    this.now = now;
  }

  take(client: string): boolean {
    const now = this.now();
    const since = now - 60_000;
    const times = (this.renders.get(client) ?? []).filter((at) => at > since);
    if (times.length === 0 && this.renders.size >= this.maxClients) {
      for (const [other, at] of this.renders) if ((at.at(-1) ?? 0) <= since) this.renders.delete(other);
      if (this.renders.size >= this.maxClients) return false;
    }
    if (times.length >= this.perMinute) return false;
    times.push(now);
    this.renders.set(client, times);
    return true;
  }
}

/** A visitor waits at most this long for the drawn page; past it they get the app's shell at once. */
const RENDER_WAIT_MS = 1500;

/** Inside a `<script>`, `<` could close it (`</script>`) or open a comment: JSON allows it escaped. */
const scriptSafeJson = (value: unknown) => JSON.stringify(value).replaceAll("<", "\\u003c");

/**
 * The server's renderer of public pages, or null when there is none (no build, or the development
 * server, where Vite serves the app). The app's API requests during a render are answered by the app
 * itself (`inject`), without the visitor's cookies, and only when the answer is one the server marks as
 * the same for everyone (the catalogue's `public` answers): nobody's data is ever drawn into a page.
 */
export async function loadPageRenderer(app: FastifyInstance, entry: string) {
  if (!existsSync(entry)) return null;
  // Loaded in the background: importing React's server renderer and the app takes seconds on a busy
  // machine, which the server's start need not wait for. Pages asked for meanwhile wait for it (within
  // RENDER_WAIT_MS, else they get the shell).
  const loading = import(pathToFileURL(entry).href) as Promise<Renderer>;
  loading.catch((error: unknown) => app.log.error({ err: error }, "the page renderer did not load"));

  const fetchOnServer: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? "GET";
    if (method === "GET") {
      const answer = await app.inject({
        method: "GET",
        url: `${url.pathname}${url.search}`,
        headers: { accept: "application/json" },
      });
      if (answer.headers["cache-control"] === CATALOGUE_CACHE_CONTROL || answer.statusCode >= 500) {
        return new Response(answer.body, {
          status: answer.statusCode,
          headers: { "content-type": String(answer.headers["content-type"] ?? "application/json") },
        });
      }
    }
    // Not drawn on the server: the browser asks for it with the visitor's session.
    return Response.json(
      { code: "NOT_RENDERED_ON_SERVER", message: "Asked for by the browser." },
      { status: 401 },
    );
  };

  const render = async (url: string): Promise<string> => {
    const rendered = await (await loading).renderPage(url, fetchOnServer);
    if (!rendered) return "";
    const markup =
      `<div id="root" data-ssr>${rendered.html}</div>` +
      `<script type="application/json" id="ssr-state">${scriptSafeJson(rendered.state)}</script>`;
    // A page drawn while the catalogue could not be read is sent, never kept.
    if (!rendered.complete) throw new IncompleteRender(markup);
    return markup;
  };

  /**
   * The page's markup for `#root`, or "" when it is drawn in the browser (no renderer answer in time,
   * it failed, or the client has used its budget of fresh renders). A KEPT page is kept in the catalogue
   * cache under its canonical address: it is made of catalogue reads only, so the notification that
   * clears those clears it too, on every instance.
   */
  const budget = new RenderBudget(app.env.PAGE_RENDERS_PER_MINUTE);
  return async (pathWithQuery: string, client: string): Promise<string> => {
    const page = canonicalPage(pathWithQuery);
    if (!page) return "";
    const key = `page:${page.url}`;
    const hit = app.catalogueCache.get(key);
    if (hit) return hit.body;
    // Past its budget a client gets the app's shell, which the browser draws: the same page, its work.
    if (!budget.take(client)) return "";
    const draw = () => render(`http://stackbay.internal${page.url}`);
    const work = (
      page.kept ? app.catalogueCache.load(key, draw).then((answer) => answer.body) : draw()
    ).catch((error: unknown) => {
      if (error instanceof IncompleteRender) return error.markup;
      app.log.warn({ err: error, path: page.url.split("?")[0] }, "server render failed");
      return "";
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(""), RENDER_WAIT_MS);
    });
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}

class IncompleteRender extends Error {
  readonly markup: string;

  constructor(markup: string) {
    super("rendered while the catalogue could not be read");
    this.markup = markup;
  }
}
