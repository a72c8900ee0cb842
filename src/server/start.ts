import { ensureWebBuild } from "#server/web/build";

// The build starts first, in a child process, and the server's own start (loading its modules, opening,
// migrating and seeding the database) runs beside it; the server listens once both are done.
const buildStarted = performance.now();
const webBuild = ensureWebBuild().then((result) => ({
  ...result,
  startMs: buildStarted,
  endMs: performance.now(),
}));
// Awaited in startServer; until then a failed build must not surface as an unhandled rejection.
webBuild.catch(() => undefined);
const { main } = await import("#server/main");
await main({ webBuild });
