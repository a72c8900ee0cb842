import { openDatabase } from "#server/db/client";
import { EnvError, loadEnv } from "#server/env";
import { configuredStorage, localUploadsDir } from "#server/storage/configured";
import { moveUploads } from "#server/storage/move";
import { localStorage } from "#server/storage/storage";

/**
 * `npm run storage:move`: copies DATA_DIR/uploads into the S3 bucket the S3_* variables name and points
 * the database's upload URLs at it. Safe to run again; run it once more after the last instance on the
 * local driver has stopped, to catch files uploaded in between.
 */
let env: ReturnType<typeof loadEnv>;
try {
  env = loadEnv();
} catch (error) {
  if (!(error instanceof EnvError)) throw error;
  console.error(error.message);
  process.exit(1);
}
if (env.STORAGE_DRIVER !== "s3" || !env.S3_PUBLIC_BASE_URL) {
  console.error("Set STORAGE_DRIVER=s3 and the S3_* variables of the bucket to move the uploads into.");
  process.exit(1);
}

const from = localUploadsDir(env);
console.info(`Moving ${from} into bucket ${env.S3_BUCKET}, served at ${env.S3_PUBLIC_BASE_URL}`);
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  const report = await moveUploads(
    database.db,
    localStorage(from),
    configuredStorage(env),
    env.S3_PUBLIC_BASE_URL,
    (line) => console.info(`  ${line}`),
  );
  const rows = Object.values(report.rewritten).reduce((sum, n) => sum + n, 0);
  console.info(
    `Done: ${report.copied} file(s) copied, ${report.alreadyThere} already in the bucket; ${rows} database row(s) rewritten.`,
  );
} finally {
  await database.close();
}
