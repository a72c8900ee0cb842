import { type DehydratedState, hydrate as restoreQueries } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { AppProvider } from "#web/app/provider";
import { AppRoutes, preloadScreen } from "#web/app/router";
import { RootHydrated, watchHydration } from "#web/lib/hydration";
import { showNoticeFromLastPage } from "#web/lib/notice-after-load";
import { createQueryClient } from "#web/lib/query-client";

/**
 * Ends the current task and goes on in the next one. Taking a drawn page over is done in steps, each a task
 * of its own, rather than one long task that a phone's tap would wait behind (Total Blocking Time counts
 * every task's time past 50 ms): evaluating the app's modules, restoring the data, hydrating.
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
const drawn = root.hasAttribute("data-ssr");
if (drawn) await nextTask();

const client = createQueryClient();
const serverState = document.getElementById("ssr-state")?.textContent;
if (serverState) {
  const state = JSON.parse(serverState) as DehydratedState;
  // The answers are as current as the page: a kept page is dropped whenever the catalogue changes
  // (decisions 0018, 0020). Dated now, they are not fetched again the moment the page is taken over.
  const now = Date.now();
  for (const query of state.queries) query.state.dataUpdatedAt = now;
  restoreQueries(client, state);
}

const app = (
  <StrictMode>
    <AppProvider client={client}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProvider>
    <RootHydrated />
  </StrictMode>
);

if (drawn) {
  // Every part hydrated: the page answers to everything (journeys wait for this). Until then the API's
  // reads hold their answers (`untilHydrated`), so each part hydrates with the data the server drew it from.
  watchHydration(() => root.removeAttribute("data-ssr"));
  // The server drew this page (decision 0020) from the data restored above. Once the page's route code
  // has loaded, React adopts that markup as it is (hydration), then re-renders what this browser knows
  // and the server did not (its stored currency, theme, cart: their stores' server snapshots).
  // A screen whose code fails to load is drawn by the browser: the error screen says so.
  await preloadScreen(window.location.pathname).catch(() => undefined);
  await nextTask();
  hydrateRoot(root, app);
} else {
  createRoot(root).render(app);
}
showNoticeFromLastPage();
