// A local S3 stand-in for scripts/two-instances.sh: s3rver on a given port, data in a given directory,
// with the bucket made up front. Prints "ready <port>" once it answers; stops on SIGTERM or SIGINT.
import S3rver from "s3rver";

const [directory, port, bucket] = process.argv.slice(2);
if (!directory || !port || !bucket) {
  console.error("Usage: node scripts/s3-server.mjs DIRECTORY PORT BUCKET");
  process.exit(1);
}
const server = new S3rver({
  address: "127.0.0.1",
  port: Number(port),
  directory,
  silent: true,
  configureBuckets: [{ name: bucket }],
});
await server.run();
console.info(`ready ${port}`);
const stop = async () => {
  await server.close();
  process.exit(0);
};
process.once("SIGTERM", () => void stop());
process.once("SIGINT", () => void stop());
