import { main } from "#server/main";
import { ensureWebBuild } from "#server/web/build";

await ensureWebBuild();
await main();
