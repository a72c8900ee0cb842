// s3rver for tests, in a process of its own: it signs ListObjectsV2 continuation tokens with DES, which
// Node's OpenSSL 3 only offers with --openssl-legacy-provider, a flag the test workers should not carry.
import S3rver from "s3rver";

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: "127.0.0.1",
  port: 0,
  directory,
  silent: true,
  configureBuckets: [{ name: bucket }],
});
const { port } = await server.run();
process.send?.({ port });
// The test process going away (normally or not) ends this one too.
process.on("disconnect", () => {
  server.close().finally(() => process.exit(0));
});
