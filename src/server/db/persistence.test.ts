import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { openDatabase } from "#server/db/client";
import { categories } from "#server/db/schema/catalog";

// What `npm start` relies on: the embedded database in DATA_DIR keeps its data across restarts.
test("the embedded database keeps its data after it is closed and opened again", async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "stackbay-persist-"));
  try {
    const first = await openDatabase({ dataDir });
    await first.migrate();
    await first.db.insert(categories).values({ name: "Hardware", slug: "hardware" });
    await first.close();

    const second = await openDatabase({ dataDir });
    await second.migrate();
    const rows = await second.db.select().from(categories).where(eq(categories.slug, "hardware"));
    await second.close();
    expect(rows.map((r) => r.name)).toEqual(["Hardware"]);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
