import { hydrate as restoreQueries } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { AppProvider } from "#web/app/provider";
import { createRouter } from "#web/app/router";
import { RootHydrated, watchHydration } from "#web/lib/hydration";
import { createQueryClient } from "#web/lib/query-client";

const router = createRouter();
const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

const client = createQueryClient();
const serverState = document.getElementById("ssr-state")?.textContent;
if (serverState) restoreQueries(client, JSON.parse(serverState));

const app = (
  <StrictMode>
    <AppProvider client={client}>
      <RouterProvider router={router} />
    </AppProvider>
    <RootHydrated />
  </StrictMode>
);

if (root.hasAttribute("data-ssr")) {
  // The server drew this page (decision 0020) from the data restored above. Once the page's route code
  // has loaded, React adopts that markup as it is (hydration), then re-renders what this browser knows
  // and the server did not (its stored currency, theme, cart: their stores' server snapshots).
  await new Promise<void>((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
  // Every part hydrated: the page answers to everything (journeys wait for this).
  watchHydration(() => root.removeAttribute("data-ssr"));
  hydrateRoot(root, app);
} else {
  createRoot(root).render(app);
}
