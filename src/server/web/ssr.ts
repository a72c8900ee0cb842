import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { FastifyInstance } from "fastify";
import { matchRoute, routePatterns } from "#domain/routes";
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
 * a comparison also read other public data, so they are drawn afresh for each visit.
 */
const KEPT = [
  routePatterns.home,
  routePatterns.products,
  routePatterns.product,
  routePatterns.about,
  routePatterns.contact,
  routePatterns.faq,
  routePatterns.privacy,
  routePatterns.terms,
  routePatterns.partner,
];
const RENDERED = [...KEPT, routePatterns.compare, routePatterns.vendor, routePatterns.page];

const matchesAny = (patterns: string[], pathname: string) =>
  patterns.some((pattern) => matchRoute(pattern, pathname) !== null);
export const isServerRendered = (pathname: string) => matchesAny(RENDERED, pathname);
const isKept = (pathname: string) => matchesAny(KEPT, pathname);

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
   * or it failed). A KEPT page is kept in the catalogue cache: it is made of catalogue reads only, so the
   * notification that clears those clears it too, on every instance.
   */
  return async (pathWithQuery: string): Promise<string> => {
    const key = `page:${pathWithQuery}`;
    const hit = app.catalogueCache.get(key);
    if (hit) return hit.body;
    const draw = () => render(`http://stackbay.internal${pathWithQuery}`);
    const kept = isKept(pathWithQuery.split("?")[0] ?? "");
    const work = (kept ? app.catalogueCache.load(key, draw).then((answer) => answer.body) : draw()).catch(
      (error: unknown) => {
        if (error instanceof IncompleteRender) return error.markup;
        app.log.warn({ err: error, path: pathWithQuery.split("?")[0] }, "server render failed");
        return "";
      },
    );
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
  constructor(readonly markup: string) {
    super("rendered while the catalogue could not be read");
  }
}
