import { loadEnv } from "#server/env";
import { startServer } from "#server/main";

/** `npm run dev`: the API on PORT (default 3000) and Vite with hot reload on PORT + 1, proxying to it. */
const env = loadEnv();
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
