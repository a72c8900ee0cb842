import { expect, test } from "vitest";
import { publicRoutes, routeJsGzip } from "../bench/route-js";

// The app's entry adds one `<link rel=modulepreload>` per chunk the app needs, one after the other on the
// main thread, and each is a request of its own. Rolldown's automatic splitting left the home route 54
// files, most a few hundred bytes (an icon, a store, an API call); small common chunks are now copied
// into the chunks that read them (vite.config.ts, decision 0024).
test("a public route loads its JavaScript in a few files, not dozens of tiny ones", async () => {
  const home = await routeJsGzip("src/web/app/routes/home.tsx");
  expect(home.files).toBeLessThanOrEqual(20);
  for (const [, module] of publicRoutes) expect((await routeJsGzip(module)).files).toBeLessThanOrEqual(30);
});

// The budget: React's own runtime plus at most 60 KB gzip of ours on the home route (decision 0025). The
// figure is the entry, the app it loads, the home screen and their static imports (bench/route-js.ts);
// code the page loads only when it is needed (the footer's, a signed-in person's header entries, other
// screens) is not in it.
test("the home route's own JavaScript stays within 60 KB gzip, React's runtime apart", async () => {
  const home = await routeJsGzip("src/web/app/routes/home.tsx");
  expect(home.react).toBeGreaterThan(0);
  expect(home.ours / 1024).toBeLessThanOrEqual(60);
});
