import { expect, test } from "vitest";
import { TtlCache } from "#server/lib/ttl-cache";

test("serves a cached value until it expires, then loads again", async () => {
  let clock = 0;
  let loads = 0;
  const cache = new TtlCache<number>(1000, 10, () => clock);
  const load = async () => ++loads;
  expect(await cache.getOrLoad("a", load)).toBe(1);
  clock = 999;
  expect(await cache.getOrLoad("a", load)).toBe(1);
  clock = 1000;
  expect(await cache.getOrLoad("a", load)).toBe(2);
});

test("drops the oldest entry when full", async () => {
  let loads = 0;
  const cache = new TtlCache<number>(60_000, 2);
  const load = async () => ++loads;
  await cache.getOrLoad("a", load);
  await cache.getOrLoad("b", load);
  await cache.getOrLoad("c", load);
  expect(await cache.getOrLoad("b", load)).toBe(2);
  expect(await cache.getOrLoad("a", load)).toBe(4);
});
