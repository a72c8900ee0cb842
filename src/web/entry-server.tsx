import { AsyncLocalStorage } from "node:async_hooks";
import { dehydrate, type Query } from "@tanstack/react-query";
import { type ReactNode, StrictMode } from "react";
import { prerender } from "react-dom/static";
import { StaticRouter } from "react-router";
import { AppProvider } from "#web/app/provider";
import { AppRoutes, preloadScreen } from "#web/app/router";
import { ApiError, answerApiOnServer } from "#web/lib/api";
import { createQueryClient } from "#web/lib/query-client";

/**
 * Renders a page on the server (decision 0020), so a visitor sees it before the app's JavaScript has
 * loaded: the same components, routes and queries as the browser. `fetchOnServer` answers the app's API
 * requests; it answers only what is the same for everyone (public catalogue reads), so the page holds
 * nobody's private data. Everything else (the session, the cart) is drawn loading, as the browser's first
 * render draws it before its own requests return.
 *
 * Null when the page is the browser's to draw: a redirect, a route that failed to load, or a render that
 * threw anywhere (React's server renderer has no error boundaries; the visitor gets the app's shell and
 * the browser draws the page, never an error screen written by the server).
 */
export function renderPage(
  url: string,
  fetchOnServer: typeof fetch,
): Promise<{ html: string; state: unknown; complete: boolean } | null> {
  return rendering.run(fetchOnServer, () => render(url));
}

/** The fetch of the render in progress: renders overlap, and each reads from the app that asked for it. */
const rendering = new AsyncLocalStorage<typeof fetch>();
answerApiOnServer(() => rendering.getStore());

async function render(url: string): Promise<{ html: string; state: unknown; complete: boolean } | null> {
  const { pathname, search, hash } = new URL(url);
  // A screen whose code failed to load: the browser app handles it.
  if (
    !(await preloadScreen(pathname).then(
      () => true,
      () => false,
    ))
  )
    return null;
  const client = createQueryClient();
  // No retries, and no garbage-collection timers: the client lives for one render, then is cleared.
  client.setDefaultOptions({
    queries: { ...client.getDefaultOptions().queries, retry: false, gcTime: Number.POSITIVE_INFINITY },
  });
  const page = () =>
    draw(
      <StrictMode>
        <AppProvider client={client}>
          <StaticRouter location={`${pathname}${search}${hash}`}>
            <AppRoutes />
          </StaticRouter>
        </AppProvider>
      </StrictMode>,
    );

  try {
    // Rendering names the queries a page needs; their answers may name more (a product's related
    // products), so render, fetch what is still missing, and render again, a bounded number of times.
    const tried = new Set<string>();
    const cache = client.getQueryCache();
    // A query holds the options of the `useQuery` that made it, `enabled` among them (untyped on Query).
    const enabled = (query: Query) => {
      const { enabled } = query.options as { enabled?: boolean | ((query: Query) => boolean) };
      return typeof enabled === "function" ? enabled(query) : enabled !== false;
    };
    // Whether every answer the page needed came: one that failed (not one left to the browser) makes the
    // page right for now, but not one to keep.
    let complete = true;
    let html = await page();
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const missing = cache
        .getAll()
        .filter(
          (q) => q.state.status === "pending" && q.state.fetchStatus === "idle" && !tried.has(q.queryHash),
        )
        .filter(enabled);
      if (missing.length === 0) break;
      for (const query of missing) tried.add(query.queryHash);
      await Promise.all(missing.map((query) => query.fetch().catch(() => undefined)));
      // A query the server did not answer (private, failed) is drawn loading, as the browser first draws it.
      for (const query of cache.getAll()) {
        if (query.state.status !== "error") continue;
        const error = query.state.error;
        if (!(error instanceof ApiError) || error.status === 0 || error.status >= 500) complete = false;
        cache.remove(query);
      }
      html = await page();
    }
    return { html, state: dehydrate(client), complete };
  } finally {
    client.clear();
  }
}

const MAX_ROUNDS = 3;
/** A render that has not finished by then is abandoned (the visitor has had the shell long before). */
const RENDER_LIMIT_MS = 10_000;

/**
 * The app's markup, complete: `prerender` waits for every part that suspends (a lazily loaded section)
 * instead of leaving its fallback. The app is drawn inside a document so that what React hoists into
 * the head (`<title>`, `<meta>`, image preloads) lands there, not before the app's first element, where
 * hydration would meet it; the server writes the page's head itself (`head.ts`) and React adopts its
 * `<title>` when it takes the page over. Rejects on any error React met while rendering.
 */
async function draw(app: ReactNode): Promise<string> {
  let failure: unknown = null;
  const { prelude } = await prerender(
    <html lang="en">
      <head />
      <body>{app}</body>
    </html>,
    {
      signal: AbortSignal.timeout(RENDER_LIMIT_MS),
      // Every part in place, in order: a large part would otherwise be sent after the rest with an
      // inline script to move it, which the pages' CSP (`script-src 'self'`) blocks.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError(error) {
        failure ??= error;
      },
    },
  );
  const document = await new Response(prelude).text();
  if (failure) throw failure;
  const start = document.indexOf("<body>");
  const end = document.lastIndexOf("</body>");
  if (start < 0 || end < start) throw new Error("The rendered document has no body.");
  return document.slice(start + "<body>".length, end);
}
