import { loadEnv } from "#server/env";
import { startServer } from "#server/main";

/** `npm run dev`: the API on PORT (default 3000) and Vite with hot reload on PORT + 1, proxying to it. */
const loaded = loadEnv();
// The browser is on Vite's port: that is the public origin writes must come from, and links point to.
const env = loaded.PUBLIC_URL
  ? loaded
  : { ...loaded, PUBLIC_URL: `http://${loaded.HOST}:${loaded.PORT + 1}` };
await startServer(env);
const { createServer } = await import("vite");
const target = `http://${env.HOST}:${env.PORT}`;
const vite = await createServer({
  server: {
    host: env.HOST,
    port: env.PORT + 1,
    proxy: { "/api": target, "/uploads": target },
  },
});
await vite.listen();
vite.printUrls();
