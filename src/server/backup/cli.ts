import path from "node:path";
import { parseArgs } from "node:util";
import { BackupError, type BackupTarget, createBackup, restoreBackup } from "#server/backup/backup";
import { DataDirInUse } from "#server/db/data-dir-lock";
import { EnvError, loadEnv } from "#server/env";
import { configuredStorage } from "#server/storage/configured";

const usage = `Usage:
  npm run backup -- <file>             write the database and every upload into one archive
  npm run restore -- <file> [--force]  restore an archive into an empty setup (--force replaces what is there)
The setup is the app's: DATABASE_URL when set (PostgreSQL), otherwise the embedded database in DATA_DIR.
On the embedded database the app must be stopped first; PostgreSQL can be backed up while it runs.`;

const [command, ...rest] = process.argv.slice(2);
const { values, positionals } = parseArgs({
  args: rest,
  allowPositionals: true,
  options: { force: { type: "boolean" }, help: { type: "boolean" } },
});
if (values.help || (command !== "backup" && command !== "restore") || positionals.length !== 1) {
  console.info(usage);
  process.exit(values.help ? 0 : 1);
}
const file = positionals[0] as string;

try {
  const env = loadEnv();
  const target: BackupTarget = env.DATABASE_URL
    ? { kind: "postgres", url: env.DATABASE_URL }
    : { kind: "pglite", dataDir: env.DATA_DIR };
  const storage = configuredStorage(env);
  if (command === "backup") {
    const manifest = await createBackup({ target, storage, file });
    const { users, orders, products, uploads } = manifest.counts;
    console.info(
      `Backup written to ${path.resolve(file)}: ${users} users, ${orders} orders, ${products} products, ${uploads} uploads (migration ${manifest.database.lastMigration}).`,
    );
  } else {
    const manifest = await restoreBackup({ target, storage, file, force: values.force });
    const { users, orders, products, uploads } = manifest.counts;
    console.info(
      `Restored the backup of ${manifest.createdAt}: ${users} users, ${orders} orders, ${products} products, ${uploads} uploads, all checked.`,
    );
  }
} catch (error) {
  if (error instanceof BackupError || error instanceof DataDirInUse || error instanceof EnvError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
